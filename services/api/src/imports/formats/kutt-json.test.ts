import { describe, expect, it } from 'vitest';
import { parseKuttJson } from './kutt-json';
import { countRows, fixture, generatedExport, parseAll } from './test-input';

async function* text(...chunks: string[]) {
  yield* chunks;
}

describe('parseKuttJson', () => {
  it('reads the links of a Kutt API list with a BOM and CRLFs, one bad target as a row error', async () => {
    expect(await parseAll(parseKuttJson(fixture('kutt-links.json')))).toEqual([
      {
        row: 1,
        link: {
          code: 'launch',
          url: 'https://example.com/spring-launch?utm_source=kutt',
          title: 'Spring launch',
          tags: [],
          createdAt: '2024-03-05T09:15:00.000Z',
          clicks: 42,
        },
      },
      {
        row: 2,
        link: {
          code: 'café',
          url: 'https://example.org/menu',
          title: 'Café crème — 東京 🍰',
          tags: [],
          createdAt: '2024-04-01T12:00:00.000Z',
          clicks: 0,
        },
      },
      { row: 3, error: 'invalid URL "not a url"' },
      {
        row: 4,
        link: {
          code: 'plain',
          url: 'http://example.net/',
          title: null,
          tags: [],
          createdAt: '2024-05-10T16:45:30.000Z',
          clicks: 3,
        },
      },
    ]);
  });

  it('names the problem when the file is not Kutt JSON', async () => {
    await expect(parseAll(parseKuttJson(text('{"links": []}')))).rejects.toThrow(
      'This is not a Kutt links JSON file: it has no "data" list',
    );
    await expect(parseAll(parseKuttJson(text('keyword,url\n')))).rejects.toThrow(
      /not a Kutt links JSON file/,
    );
  });

  it('marks list items that are not links and links without a target', async () => {
    expect(await parseAll(parseKuttJson(text('{"data":[42,{"address":"x"}]}')))).toEqual([
      { row: 1, error: 'list item is not a link object' },
      { row: 2, error: 'missing URL' },
    ]);
  });

  it('streams 100,000 links', async () => {
    const input = generatedExport(
      100_000,
      (i) =>
        `${i === 0 ? '' : ','}{"address":"c${i}","target":"https://example.com/${i}","description":"Link ${i}",` +
        `"created_at":"2024-01-01T00:00:00.000Z","visit_count":${i}}`,
      '{"total":100000,"data":[',
      ']}',
    );
    expect(await countRows(parseKuttJson(input))).toEqual({ rows: 100_000, links: 100_000, last: 100_000 });
  });
});
