import { describe, expect, it } from 'vitest';
import { parseDubCsv } from './dub-csv';
import { countRows, fixture, generatedExport, parseAll } from './test-input';

async function* text(...chunks: string[]) {
  yield* chunks;
}

describe('parseDubCsv', () => {
  it('reads a Dub links export with a BOM and CRLFs, a bad destination as a row error', async () => {
    expect(await parseAll(parseDubCsv(fixture('dub-links.csv')))).toEqual([
      {
        row: 1,
        link: {
          code: 'launch',
          url: 'https://example.com/launch?ref=dub',
          title: 'Launch, part 1',
          tags: ['marketing', 'launch'],
          createdAt: '2024-06-01T10:00:00.000Z',
          clicks: 1204,
        },
      },
      {
        row: 2,
        link: {
          code: 'café',
          url: 'https://example.org/café',
          title: 'Café — 東京 🍣',
          tags: [],
          createdAt: '2024-06-02T11:30:00.000Z',
          clicks: 5,
        },
      },
      { row: 3, error: 'invalid URL "htp//example.com"' },
      {
        row: 4,
        link: {
          code: 'nodate',
          url: 'https://example.net/',
          title: null,
          tags: [],
          createdAt: null,
          clicks: null,
        },
      },
    ]);
  });

  it('names the problem when the file has no destination column', async () => {
    await expect(parseAll(parseDubCsv(text('{"data":[]}\n')))).rejects.toThrow(
      'This is not a Dub CSV export file: its first line cannot be read as CSV',
    );
    await expect(parseAll(parseDubCsv(text('keyword,target\nabc,https://a.test/\n')))).rejects.toThrow(
      'This is not a Dub CSV export file: its first line has no "destination url" or "url" column',
    );
  });

  it('streams 100,000 rows', async () => {
    const input = generatedExport(
      100_000,
      (i) =>
        `https://dub.sh/c${i},https://example.com/${i},Title ${i},${i},2024-06-01T10:00:00.000Z,link_${i},\n`,
      'Link,Destination URL,Title,Clicks,Created at,Link ID,Tags\n',
    );
    expect(await countRows(parseDubCsv(input))).toEqual({ rows: 100_000, links: 100_000, last: 100_000 });
  });
});
