import { describe, expect, it } from 'vitest';
import { parseShlinkCsv } from './shlink-csv';
import { countRows, fixture, generatedExport, parseAll } from './test-input';

async function* text(...chunks: string[]) {
  yield* chunks;
}

describe('parseShlinkCsv', () => {
  it('reads short-url:list CSV with a BOM and CRLFs; a bad URL and a broken line become row errors', async () => {
    const rows = await parseAll(parseShlinkCsv(fixture('shlink-short-urls.csv')));
    expect(rows.slice(0, 3)).toEqual([
      {
        row: 1,
        link: {
          code: '12C18',
          url: 'https://store.example.com/product/1',
          title: 'Valentine\'s "deal"',
          tags: ['shop', 'valentines'],
          createdAt: '2024-02-14T08:30:00.000Z',
          clicks: 328,
        },
      },
      {
        row: 2,
        link: {
          code: 'ñandú',
          url: 'https://example.org/aves',
          title: 'Ñandú — Пингвин 🐧',
          tags: [],
          createdAt: '2024-03-01T00:00:00.000Z',
          clicks: 0,
        },
      },
      { row: 3, error: 'invalid URL "notaurl"' },
    ]);
    expect(rows[3]).toEqual({ row: 4, error: expect.stringMatching(/^unreadable CSV line: .*quote/i) });
    expect(rows).toHaveLength(4);
  });

  it('names the problem when the file has no Long URL column', async () => {
    await expect(parseAll(parseShlinkCsv(text('keyword,url\r\nabc,https://a.test/\r\n')))).rejects.toThrow(
      'This is not a Shlink short-url:list CSV file: its first line has no "long url" or "longurl" column',
    );
  });

  it('streams 100,000 rows', async () => {
    const input = generatedExport(
      100_000,
      (i) =>
        `c${i},Title ${i},https://s.test/c${i},https://example.com/${i},2024-01-01T00:00:00+00:00,${i},"a, b"\r\n`,
      'Short Code,Title,Short URL,Long URL,Date created,Visits count,Tags\r\n',
    );
    expect(await countRows(parseShlinkCsv(input))).toEqual({ rows: 100_000, links: 100_000, last: 100_000 });
  });
});
