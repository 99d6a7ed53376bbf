import type { Link } from '@sniplink/contracts';
import { countedClicks, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'scrape-token-0123456789abcdef';
/** A person's browser: its click counts as a human's. */
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A series' value in Prometheus' text format: the line `name{labels} value`, or undefined when absent. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let off: TestApi;
  let withToken: TestApi;
  beforeAll(async () => {
    [off, withToken] = await Promise.all([startTestApi(), startTestApi({ METRICS_TOKEN: TOKEN })]);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), withToken?.close()]);
  });

  it('is not there unless METRICS or METRICS_TOKEN turns it on', async () => {
    expect((await off.client().get('/metrics')).status).toBe(404);
  });

  it('answers 401 without the token, or with another one', async () => {
    const client = withToken.client();
    const without = await client.get('/metrics');
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await client.get('/metrics', { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
    expect((await client.get('/metrics', { authorization: TOKEN })).status).toBe(401);
  });

  it('with the token, shows the redirect, its click published and counted, the lags and node’s own series', async () => {
    const { client } = await signedUpClient(withToken, 'metrics');
    const link = (
      await client.post<Link>('/api/links', { originalUrl: 'https://example.com/m', title: null })
    ).body;
    const visit = await fetch(`${withToken.baseUrl}/s/${link.shortCode}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(visit.status).toBe(302);
    expect((await countedClicks(withToken, link.id)).clicks).toBe(1);

    const scrape = () => client.get<string>('/metrics', { authorization: `Bearer ${TOKEN}` });
    // The links read model follows the account's events too, a moment after the answers that made them.
    await expect
      .poll(async () => sample((await scrape()).text, 'sniplink_projection_lag_events{projection="links"}'))
      .toBe(0);
    const scraped = await scrape();
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const body = scraped.text;
    expect(sample(body, 'sniplink_redirects_total')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'sniplink_clicks_published_total')).toBe(1);
    expect(sample(body, 'sniplink_clicks_buffered')).toBe(0);
    expect(sample(body, 'sniplink_clicks_counted')).toBe(1);
    expect(sample(body, 'sniplink_click_stream_lag_clicks')).toBe(0);
    expect(sample(body, 'sniplink_click_spill_bytes')).toBe(0);
    expect(sample(body, 'sniplink_projection_lag_events{projection="links"}')).toBe(0);
    expect(sample(body, 'sniplink_projection_lag_seconds{projection="links"}')).toBe(0);
    // By route pattern, never the URL: the link's id is in no label.
    expect(sample(body, 'sniplink_http_requests_total{method="POST",route="/api/links",status="201"}')).toBe(
      1,
    );
    expect(body).not.toContain(link.id);
    // The latency is there by route too; which bucket it falls in depends on how busy the machine is.
    expect(
      sample(
        body,
        'sniplink_http_request_duration_seconds_count{method="POST",route="/api/links",status="201"}',
      ),
    ).toBe(1);
    expect(body).toMatch(
      /^sniplink_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/api\/links",status="201"\} 1$/m,
    );
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});
