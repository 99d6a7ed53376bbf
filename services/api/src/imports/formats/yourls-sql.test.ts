import { describe, expect, it } from 'vitest';
import { countRows, fixture, generatedExport, parseAll } from './test-input';
import { parseYourlsSql } from './yourls-sql';

async function* text(...chunks: string[]) {
  yield* chunks;
}

describe('parseYourlsSql', () => {
  it('reads the url table of a mysqldump with escapes, a BOM and CRLFs, skipping the log table', async () => {
    expect(await parseAll(parseYourlsSql(fixture('yourls-dump.sql')))).toEqual([
      {
        row: 1,
        link: {
          code: 'ozh',
          url: 'http://ozh.org/',
          title: 'Ozh\'s blog; "quotes" and a \\ backslash',
          tags: [],
          createdAt: '2023-01-01T12:34:56.000Z',
          clicks: 2,
        },
      },
      {
        row: 2,
        link: {
          code: 'münchen',
          url: 'https://example.de/stadt?x=(1)',
          title: 'München — 東京 🍜\nzweite Zeile',
          tags: [],
          createdAt: '2023-02-03T04:05:06.000Z',
          clicks: 0,
        },
      },
      { row: 3, error: 'invalid URL "ftp://example.com/file": only http and https links can be imported' },
      { row: 4, error: 'expected 6 values (keyword, url, title, timestamp, ip, clicks), found 5' },
      {
        row: 5,
        link: {
          code: 'last',
          url: 'https://example.com/last',
          title: "It's the last",
          tags: [],
          createdAt: null,
          clicks: 9,
        },
      },
    ]);
  });

  it('follows the column names of a complete-insert dump and any table prefix', async () => {
    const rows = await parseAll(
      parseYourlsSql(
        text(
          'INSERT INTO `db`.`links_url` (`url`, `keyword`, `clicks`) VA',
          "LUES ('https://a.test/','a',3),('https://b.test/','b',NULL);",
        ),
      ),
    );
    expect(rows).toEqual([
      {
        row: 1,
        link: { code: 'a', url: 'https://a.test/', title: null, tags: [], createdAt: null, clicks: 3 },
      },
      {
        row: 2,
        link: { code: 'b', url: 'https://b.test/', title: null, tags: [], createdAt: null, clicks: null },
      },
    ]);
  });

  it('names the problem when the file is not a YOURLS dump', async () => {
    await expect(parseAll(parseYourlsSql(text('keyword,url\nabc,https://a.test/\n')))).rejects.toThrow(
      'This is not a YOURLS SQL dump: it has no INSERT INTO or CREATE TABLE for the yourls_url table',
    );
  });

  it('streams 100,000 rows of multi-row INSERTs', async () => {
    const input = generatedExport(
      100_000,
      (i) =>
        `${i % 1000 === 0 ? 'INSERT INTO `yourls_url` VALUES ' : ','}('c${i}','https://example.com/${i}',` +
        `'Title \\'${i}\\'','2023-01-01 00:00:00','127.0.0.1',${i})${i % 1000 === 999 ? ';\n' : ''}`,
    );
    expect(await countRows(parseYourlsSql(input))).toEqual({ rows: 100_000, links: 100_000, last: 100_000 });
  });
});
