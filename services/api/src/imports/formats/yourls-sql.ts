import { checkTarget, clickCount, textOrNull } from './link-fields';
import { type SqlToken, sqlTokens } from './sql-tokens';
import type { ImportParser, ParsedRow } from './types';

// The columns of YOURLS's url table in the order its CREATE TABLE gives them, which mysqldump follows when it
// writes INSERTs without column names.
const URL_COLUMNS = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'];

/** YOURLS's url table under any table prefix (YOURLS_DB_PREFIX, "yourls_" by default). */
function isUrlTable(name: string): boolean {
  return /(^|_)url$/i.test(name);
}

/**
 * Reads a mysqldump of YOURLS's url table: multi-row `INSERT INTO \`yourls_url\` VALUES (...),(...);` with or
 * without column names. Other tables in the dump (yourls_log, yourls_options) are passed over: the url table
 * already holds each link's click total.
 */
export const parseYourlsSql: ImportParser = async function* (input) {
  const tokens = sqlTokens(input)[Symbol.asyncIterator]();
  const next = async (): Promise<SqlToken | null> => {
    const step = await tokens.next();
    return step.done ? null : step.value;
  };
  let row = 0;
  let tableSeen = false;
  let token = await next();
  while (token !== null) {
    // At the start of a statement.
    const verb = token.kind === 'word' ? token.text.toUpperCase() : '';
    if (verb === 'CREATE' || verb === 'INSERT' || verb === 'REPLACE') {
      const head: SqlToken[] = [token];
      token = await next();
      // The statement's head runs to VALUES (an INSERT) or to the first parenthesis (a CREATE TABLE).
      while (token !== null && !isWord(token, 'VALUES', 'VALUE') && !isPunct(token, '(', ';')) {
        head.push(token);
        token = await next();
      }
      const table = tableName(head);
      if (table !== null && isUrlTable(table)) {
        tableSeen = true;
        if (verb !== 'CREATE') {
          let columns = URL_COLUMNS;
          if (token !== null && isPunct(token, '(')) {
            const named: string[] = [];
            token = await next();
            while (token !== null && !isPunct(token, ')')) {
              if (token.kind === 'name' || token.kind === 'word') named.push(token.text.toLowerCase());
              token = await next();
            }
            columns = named;
            token = await next();
          }
          if (token !== null && isWord(token, 'VALUES', 'VALUE')) {
            token = await next();
            // Each tuple of the multi-row INSERT.
            while (token !== null && isPunct(token, '(')) {
              row += 1;
              const values: (string | null)[] = [];
              let broken: string | null = null;
              token = await next();
              while (token !== null && !isPunct(token, ')', ';')) {
                if (token.kind === 'string' || token.kind === 'number') values.push(token.text);
                else if (isWord(token, 'NULL')) values.push(null);
                else if (!isPunct(token, ',')) broken ??= `unexpected "${token.text}" in the values`;
                token = await next();
              }
              if (token === null || isPunct(token, ';')) {
                yield { row, error: 'the values end without a closing parenthesis' };
                break;
              }
              yield linkOf(row, columns, values, broken);
              token = await next();
              if (token !== null && isPunct(token, ',')) token = await next();
            }
          }
        }
      }
    }
    // Pass over the rest of the statement.
    while (token !== null && !isPunct(token, ';')) token = await next();
    token = await next();
  }
  if (!tableSeen) {
    throw new Error(
      'This is not a YOURLS SQL dump: it has no INSERT INTO or CREATE TABLE for the yourls_url table',
    );
  }
};

function linkOf(row: number, columns: string[], values: (string | null)[], broken: string | null): ParsedRow {
  if (broken !== null) return { row, error: broken };
  if (values.length !== columns.length) {
    return {
      row,
      error: `expected ${columns.length} values (${columns.join(', ')}), found ${values.length}`,
    };
  }
  const field = (name: string) => {
    const index = columns.indexOf(name);
    return index === -1 ? null : values[index];
  };
  const target = checkTarget(field('url'));
  if ('error' in target) return { row, error: target.error };
  return {
    row,
    link: {
      code: textOrNull(field('keyword')),
      url: target.url,
      title: textOrNull(field('title')),
      tags: [],
      createdAt: mysqlTime(field('timestamp')),
      clicks: clickCount(field('clicks')),
    },
  };
}

/**
 * YOURLS writes `timestamp` as a MySQL DATETIME without zone; it is read as UTC, the zone YOURLS's own date
 * handling assumes unless an hours offset is configured, which the dump does not record.
 */
function mysqlTime(raw: string | null | undefined): string | null {
  const match = raw?.match(/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/);
  if (!match || match[1] === '0000') return null;
  const time = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** The table an INSERT or CREATE TABLE names: the name after INTO or TABLE, without its database. */
function tableName(head: SqlToken[]): string | null {
  const at = head.findIndex((token) => isWord(token, 'INTO', 'TABLE'));
  if (at === -1) return null;
  let index = at + 1;
  while (index < head.length && isWord(head[index] as SqlToken, 'IF', 'NOT', 'EXISTS')) index += 1;
  let name: string | null = null;
  for (; index < head.length; index += 1) {
    const token = head[index] as SqlToken;
    if (token.kind === 'name' || token.kind === 'word') name = token.text;
    else if (!isPunct(token, '.')) break;
  }
  return name;
}

function isWord(token: SqlToken, ...words: string[]): boolean {
  return token.kind === 'word' && words.includes(token.text.toUpperCase());
}

function isPunct(token: SqlToken, ...chars: string[]): boolean {
  return token.kind === 'punct' && chars.includes(token.text);
}
