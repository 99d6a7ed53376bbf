import { describe, expect, it } from 'vitest';
import { parseShlinkJson } from './shlink-json';
import { countRows, fixture, generatedExport, parseAll } from './test-input';

async function* text(...chunks: string[]) {
  yield* chunks;
}

describe('parseShlinkJson', () => {
  it('reads the short URLs of a Shlink REST list with a BOM and CRLFs, one bad long URL as a row error', async () => {
    expect(await parseAll(parseShlinkJson(fixture('shlink-short-urls.json')))).toEqual([
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
      { row: 3, error: 'invalid URL "javascript:alert(1)": only http and https links can be imported' },
    ]);
  });

  it('takes the visit count of older servers and keeps going past a broken item', async () => {
    const rows = await parseAll(
      parseShlinkJson(
        text(
          '{"shortUrls":{"pagination":{"totalItems":3},"data":[{"shortCode":"a","longUrl":"https://a.test/",',
          '"visitsCount":5},{"shortCode": nope},{"shortUrl":"https://s.test/b","longUrl":"https://b.test/"}]}}',
        ),
      ),
    );
    expect(rows).toEqual([
      { row: 1, link: expect.objectContaining({ code: 'a', clicks: 5 }) },
      { row: 2, error: 'unreadable JSON item: {"shortCode": nope}' },
      { row: 3, link: expect.objectContaining({ code: 'b', url: 'https://b.test/', clicks: null }) },
    ]);
  });

  it('names the problem when the file is a Kutt list or not JSON', async () => {
    await expect(parseAll(parseShlinkJson(text('{"data":[]}')))).rejects.toThrow(
      'This is not a Shlink short URLs JSON file: it has no "shortUrls.data" list',
    );
    await expect(parseAll(parseShlinkJson(text('Short Code,Long URL')))).rejects.toThrow(
      'This is not a Shlink short URLs JSON file: it does not start with a JSON object',
    );
  });

  it('streams 100,000 short URLs', async () => {
    const input = generatedExport(
      100_000,
      (i) =>
        `${i === 0 ? '' : ','}{"shortCode":"c${i}","longUrl":"https://example.com/${i}","title":"T ${i}",` +
        `"tags":["a"],"dateCreated":"2024-01-01T00:00:00+00:00","visitsSummary":{"total":${i}}}`,
      '{"shortUrls":{"data":[',
      '],"pagination":{"totalItems":100000}}}',
    );
    expect(await countRows(parseShlinkJson(input))).toEqual({ rows: 100_000, links: 100_000, last: 100_000 });
  });
});
