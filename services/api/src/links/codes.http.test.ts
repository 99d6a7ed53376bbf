import type { ErrorBody, Link } from '@sniplink/contracts';
import { clickCounts, linkClicks, withReadModels } from '@sniplink/projections';
import {
  type HttpClient,
  type HttpResponse,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresRateLimiters } from '../http/rate-limiter';
import { CodeChangeThrottle } from './code-change-throttle';
import { LinkService } from './link-service';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CODE_CHANGES_PER_DAY = 5;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    PUBLIC_URL: 'https://snip.example.com',
    CODE_CHANGES_PER_DAY: String(CODE_CHANGES_PER_DAY),
  });
});
afterAll(() => api.close());

const signedIn = () => signedUpClient(api, 'codes');
const create = (client: HttpClient, body: Record<string, unknown>) =>
  client.post<Link>('/api/links', { title: null, ...body });
let counter = 0;
const uniqueCode = (name: string) => `${name}-${Date.now() % 1_000_000}-${++counter}`;

/** The last event of a code's stream: what was decided, and why. */
async function lastCodeEvent(code: string) {
  const events = await api.runtime.eventStore.readStream(`shortcode-${code.toLowerCase()}`);
  const last = events.at(-1);
  return { type: last?.type, data: last?.data };
}

/** Follows a short link as a visitor would and waits until the click is counted (humans and bots apart). */
async function clickAndWait(link: Link, userAgent = CHROME): Promise<void> {
  const response = await fetch(`${api.baseUrl}/s/${link.shortCode}`, {
    redirect: 'manual',
    headers: { 'user-agent': userAgent },
  });
  expect(response.status).toBe(302);
  const counted = await until(
    () =>
      withReadModels(api.runtime.database.db)
        .selectFrom('rm_link_clicks')
        .select(['clicks', 'bot_clicks'])
        .where('link_id', '=', link.id)
        .executeTakeFirst(),
    (row) => row !== undefined && Number(row.clicks) + Number(row.bot_clicks) >= 1,
    15_000,
  );
  const bot = userAgent === GOOGLEBOT;
  expect(counted).toMatchObject({ clicks: String(bot ? 0 : 1), bot_clicks: String(bot ? 1 : 0) });
}

describe('code changes per account', () => {
  it(`answers 429 RATE_LIMITED with Retry-After past ${CODE_CHANGES_PER_DAY} changes a day; nothing else is counted`, async () => {
    const { client } = await signedIn();
    const link = (await create(client, { originalUrl: 'https://example.com/hoard' })).body;
    const { client: other } = await signedIn();
    const taken = (
      await create(other, { originalUrl: 'https://example.org/', shortCode: uniqueCode('taken') })
    ).body.shortCode;
    // Neither a title, a change of case only, nor a refused (taken) code counts.
    expect((await client.patch(`/api/links/${link.id}`, { title: 'Hoard' })).status).toBe(200);
    const caseOnly = link.shortCode.toUpperCase();
    expect((await client.patch<Link>(`/api/links/${link.id}`, { shortCode: caseOnly })).body.shortCode).toBe(
      caseOnly,
    );
    expect((await client.patch(`/api/links/${link.id}`, { shortCode: taken })).status).toBe(409);
    const statuses: number[] = [];
    let limited: HttpResponse<Link> | undefined;
    let lastCode = caseOnly;
    for (let i = 0; i < 25; i++) {
      const code = uniqueCode(`hoard${i}`);
      const response = await client.patch<Link>(`/api/links/${link.id}`, { shortCode: code });
      statuses.push(response.status);
      if (response.status === 200) lastCode = code;
      if (response.status === 429) limited ??= response;
    }
    expect(statuses).toEqual([
      ...Array(CODE_CHANGES_PER_DAY).fill(200),
      ...Array(25 - CODE_CHANGES_PER_DAY).fill(429),
    ]);
    expect(limited?.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining(`${CODE_CHANGES_PER_DAY} times a day`),
    });
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    // The refused changes changed nothing; a title still changes; another account is not limited.
    const [listed] = (await client.get<Link[]>('/api/links')).body;
    expect(listed?.shortCode).toBe(lastCode);
    expect((await client.patch(`/api/links/${link.id}`, { title: 'Still editable' })).status).toBe(200);
    const otherLink = (await other.get<Link[]>('/api/links')).body[0];
    expect((await other.patch(`/api/links/${otherLink?.id}`, { shortCode: uniqueCode('free') })).status).toBe(
      200,
    );
  });
});

describe('codes given up', () => {
  it('frees a code never clicked, on a code change and on a delete: another account claims it at once', async () => {
    const { client } = await signedIn();
    const first = uniqueCode('unclicked');
    const link = (await create(client, { originalUrl: 'https://example.com/a', shortCode: first })).body;
    const second = uniqueCode('unclicked');
    expect((await client.patch(`/api/links/${link.id}`, { shortCode: second })).status).toBe(200);
    expect(await lastCodeEvent(first)).toEqual({
      type: 'ShortCodeReleased',
      data: { linkId: link.id, reason: 'never-clicked' },
    });
    const { client: other } = await signedIn();
    expect((await create(other, { originalUrl: 'https://example.org/a', shortCode: first })).status).toBe(
      201,
    );
    expect((await client.request('DELETE', `/api/links/${link.id}`)).status).toBe(200);
    const claimed = await create(other, { originalUrl: 'https://example.org/b', shortCode: second });
    expect(claimed.status).toBe(201);
    expect((await fetch(`${api.baseUrl}/s/${second}`, { redirect: 'manual' })).headers.get('location')).toBe(
      'https://example.org/b',
    );
  });

  it('keeps a code a visitor followed: others get 409, its owner takes it back', async () => {
    const { client } = await signedIn();
    const code = uniqueCode('clicked');
    const link = (await create(client, { originalUrl: 'https://example.com/shared', shortCode: code })).body;
    await clickAndWait(link);
    expect((await client.patch(`/api/links/${link.id}`, { shortCode: uniqueCode('moved') })).status).toBe(
      200,
    );
    expect(await lastCodeEvent(code)).toEqual({
      type: 'ShortCodeRetired',
      data: { linkId: link.id, reason: 'clicked' },
    });
    const { client: other } = await signedIn();
    const refused = await create(other, { originalUrl: 'https://evil.example.com/', shortCode: code });
    expect(refused.status).toBe(409);
    expect((refused.body as unknown as ErrorBody).code).toBe('SHORT_CODE_TAKEN');
    expect((await fetch(`${api.baseUrl}/s/${code}`, { redirect: 'manual' })).status).toBe(404);
    expect((await create(client, { originalUrl: 'https://example.com/back', shortCode: code })).status).toBe(
      201,
    );
  });

  it('keeps the code of a deleted link that only a bot followed', async () => {
    const { client } = await signedIn();
    const code = uniqueCode('unfurled');
    const link = (await create(client, { originalUrl: 'https://example.com/chat', shortCode: code })).body;
    await clickAndWait(link, GOOGLEBOT);
    expect((await client.request('DELETE', `/api/links/${link.id}`)).status).toBe(200);
    expect(await lastCodeEvent(code)).toEqual({
      type: 'ShortCodeRetired',
      data: { linkId: link.id, reason: 'clicked' },
    });
    const { client: other } = await signedIn();
    expect((await create(other, { originalUrl: 'https://example.org/', shortCode: code })).status).toBe(409);
  });
});

describe('concurrent edits of one link', () => {
  /** 20 edits of one link: codes (one of them taken), targets, titles, mixed. */
  const editsOf = (name: string, taken: string) =>
    Array.from({ length: 20 }, (_, i): Record<string, string> => {
      if (i % 5 === 0) return { shortCode: uniqueCode(`${name}${i}`), title: `code ${i}` };
      if (i % 5 === 1) return { originalUrl: `https://example.com/${name}/${i}` };
      if (i % 5 === 2) return { shortCode: taken };
      return { title: `title ${i}`, originalUrl: `https://example.com/t/${i}` };
    });

  it('answers 20 at once per link (5 links at once) with 200 or a clear 4xx, never 5xx; the link is one of the answers', async () => {
    const { client: other } = await signedIn();
    const taken = (
      await create(other, { originalUrl: 'https://example.org/', shortCode: uniqueCode('held') })
    ).body.shortCode;
    const links = await Promise.all(
      Array.from({ length: 5 }, async (_, n) => {
        const { client } = await signedIn();
        const link = (await create(client, { originalUrl: 'https://example.com/busy' })).body;
        return { client, link, edits: editsOf(`busy${n}-`, taken) };
      }),
    );
    const answered = await Promise.all(
      links.map(({ client, link, edits }) =>
        Promise.all(edits.map((edit) => client.patch<Link>(`/api/links/${link.id}`, edit))),
      ),
    );
    expect(answered.map((answers) => answers.map((answer) => answer.status))).toEqual(
      links.map(({ edits }) => edits.map((edit) => (edit.shortCode === taken ? 409 : 200))),
    );
    for (const [n, { client, link, edits }] of links.entries()) {
      const answers = answered[n] ?? [];
      const final = (await client.get<Link[]>('/api/links')).body.find((l) => l.id === link.id);
      expect(answers.map((answer) => answer.body)).toContainEqual(final);
      await expectOnlyHeldCodeClaimed(link.id, final?.shortCode, edits, taken);
    }
  });

  it('keeps edits from two processes (each serialising its own) within the retry budget', async () => {
    const { client, userId } = await signedIn();
    const { client: other } = await signedIn();
    const taken = (
      await create(other, { originalUrl: 'https://example.org/', shortCode: uniqueCode('held') })
    ).body.shortCode;
    const link = (await create(client, { originalUrl: 'https://example.com/two' })).body;
    // A second LinkService on the same database: what another API process is (its own per-link queue).
    const secondProcess = anotherProcess();
    // One edit in flight per process: with three new codes made, the two taken-code tries that may be in
    // flight together still fit the day's 5 (a 4th new code would leave room for only one, and a 429).
    const edits = editsOf('two', taken).filter((_, i) => i !== 15);
    const outcomes = await Promise.all(
      edits.map(async (edit, i) => {
        if (i % 2 === 0) return (await client.patch<Link>(`/api/links/${link.id}`, edit)).status;
        return secondProcess.update(userId, link.id, edit).then(
          () => 200,
          (error: { status?: number }) => error.status ?? 500,
        );
      }),
    );
    expect(outcomes).toEqual(edits.map((edit) => (edit.shortCode === taken ? 409 : 200)));
    const final = (await client.get<Link[]>('/api/links')).body.find((l) => l.id === link.id);
    await expectOnlyHeldCodeClaimed(link.id, final?.shortCode, edits, taken);
  });
});

/** Every code a link moved through and left was given up (freed: never clicked); it holds only its own. */
async function expectOnlyHeldCodeClaimed(
  linkId: string,
  held: string | undefined,
  edits: Record<string, string>[],
  taken: string,
): Promise<void> {
  for (const { shortCode } of edits) {
    if (shortCode === undefined || shortCode === taken) continue;
    const last = await lastCodeEvent(shortCode);
    if (shortCode === held) expect(last).toMatchObject({ type: 'ShortCodeClaimed', data: { linkId } });
    else expect(last).toEqual({ type: 'ShortCodeReleased', data: { linkId, reason: 'never-clicked' } });
  }
}

/** Another API process's LinkService: the same database, stores and limits, its own per-link queue. */
function anotherProcess(): LinkService {
  const { runtime, config } = api;
  const db = runtime.database.db;
  return new LinkService({
    db,
    eventStore: runtime.eventStore,
    accounts: runtime.accounts,
    readModels: runtime.progress,
    publicUrl: config.publicUrl,
    ownOrigins: [config.publicUrl],
    clickCounts: (linkIds) => clickCounts(db, linkIds),
    linkClicks: (linkId) => linkClicks(db, runtime.clickStream, linkId),
    codeChanges: new CodeChangeThrottle(
      { limiters: postgresRateLimiters({ pool: runtime.database.pool }) },
      config.codeChangesPerDay,
    ),
    moderation: runtime.moderation,
    clock: runtime.clock,
    ids: runtime.ids,
  });
}
