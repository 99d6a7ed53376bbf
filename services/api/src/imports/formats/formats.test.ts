import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBitlyCsv } from './bitly-csv';
import { importFormat } from './index';
import type { ImportParser, ParsedRow } from './types';
import { parseYourlsCsv } from './yourls-csv';

const fixture = (name: string) => createReadStream(new URL(`./fixtures/${name}`, import.meta.url));

async function rowsOf(parser: ImportParser, input: AsyncIterable<Uint8Array | string>): Promise<ParsedRow[]> {
  const rows: ParsedRow[] = [];
  for await (const row of parser(input)) rows.push(row);
  return rows;
}

/** The file in pieces of a few bytes: a row, a quote or a multi-byte character split across chunks. */
async function* inSmallChunks(text: string): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
}

describe('the Bitly CSV export', () => {
  it('gives each Bitlink its back-half, target, title, tags, creation time and clicks, past a BOM and CRLF', async () => {
    const rows = await rowsOf(parseBitlyCsv, fixture('bitly.csv'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual({
      row: 1,
      link: {
        code: '3sPrng',
        url: 'https://shop.example.com/spring?utm_source=bitly',
        title: 'Spring sale',
        tags: ['sales', 'spring'],
        createdAt: '2024-03-01T09:15:00.000Z',
        clicks: 1204,
      },
    });
    expect(rows[1]).toMatchObject({
      row: 2,
      link: { code: 'cafe-menu', title: 'Café menu — 日本語', clicks: 37 },
    });
    expect(rows[4]).toMatchObject({
      row: 5,
      link: { title: 'Multi\r\nline title', tags: ['docs'], clicks: null },
    });
  });

  it('reads the same rows from a stream cut anywhere', async () => {
    const text =
      '\uFEFFlong_url,link,title,created_at\r\nhttps://a.example.com/,https://bit.ly/abc,"Quote ""here""",\r\n';
    expect(await rowsOf(parseBitlyCsv, inSmallChunks(text))).toEqual([
      {
        row: 1,
        link: {
          code: 'abc',
          url: 'https://a.example.com/',
          title: 'Quote "here"',
          tags: [],
          createdAt: null,
          clicks: null,
        },
      },
    ]);
  });

  it('names the reason of a row it cannot read, and refuses a file with no URL column', async () => {
    const text =
      'Bitlink,Long URL,Created,Clicks\nbit.ly/a,,2024-01-01,1\nbit.ly/b,https://b.example.com,someday,1\nbit.ly/c,https://c.example.com,,many\n';
    expect(await rowsOf(parseBitlyCsv, inSmallChunks(text))).toEqual([
      { row: 1, error: 'The row has no URL' },
      { row: 2, error: 'The creation date is not a date' },
      { row: 3, error: 'The click count is not a whole number' },
    ]);
    await expect(rowsOf(parseBitlyCsv, inSmallChunks('name,age\nAda,36\n'))).rejects.toThrow(
      'This is not a Bitly CSV export',
    );
  });
});

describe('the YOURLS CSV export', () => {
  it('gives each keyword its target, title, time (UTC) and clicks, with Unicode and a BOM', async () => {
    const rows = await rowsOf(parseYourlsCsv, fixture('yourls.csv'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual({
      row: 1,
      link: {
        code: 'ozhome',
        url: 'https://www.example.com/',
        title: 'Example home',
        tags: [],
        createdAt: '2023-11-02T08:12:44.000Z',
        clicks: 88,
      },
    });
    expect(rows[1]).toMatchObject({
      link: { url: 'https://de.example.ch/zürich', title: 'Zürich, über alles' },
    });
    expect(rows[4]).toMatchObject({
      row: 5,
      link: { code: 'nodate', title: null, createdAt: null, clicks: null },
    });
  });

  it('reads a table dumped without its header row in the columns of yourls_url', async () => {
    const text = 'ozh,http://ozh.org/,Ozh,2009-04-25 19:22:41,127.0.0.1,12\n';
    expect(await rowsOf(parseYourlsCsv, inSmallChunks(text))).toEqual([
      {
        row: 1,
        link: {
          code: 'ozh',
          url: 'http://ozh.org/',
          title: 'Ozh',
          tags: [],
          createdAt: '2009-04-25T19:22:41.000Z',
          clicks: 12,
        },
      },
    ]);
  });
});

describe('the registry of formats', () => {
  it('knows the formats built here by their ids and nothing else', () => {
    expect(importFormat('bitly')?.label).toBe('Bitly (CSV export)');
    expect(importFormat('yourls-csv')?.parse).toBe(parseYourlsCsv);
    expect(importFormat('toString')).toBeUndefined();
  });
});
