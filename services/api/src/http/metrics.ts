import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { operation, text } from './route-schema';

export type { Registry };

export interface MetricsDeps {
  /** The process's series: the HTTP ones are added here, the runtime's figures by whoever made it. */
  registry: Registry;
  /** METRICS_TOKEN: a scrape must send `Authorization: Bearer <token>` (401 otherwise); absent: open. */
  token: string | undefined;
}

/** A registry of this process's own (tests start several apps in one process), with node's default series. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * A series whose value is read when Prometheus scrapes (prom-client's `collect`), from where the figure
 * already lives (the click buffer, the spill, the supervisor): nothing on the request path counts for it.
 * A counter is set to the source's running total at each scrape.
 */
export function counterOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export function gaugeOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * Gauges read from the database at each scrape, labelled (`projection`: one series each). A read that
 * fails (the database restarting) leaves the series out of that scrape rather than failing it.
 */
export function databaseGauges<Label extends string>(
  registry: Registry,
  gauges: ReadonlyArray<{ name: string; help: string }>,
  labelNames: readonly Label[],
  read: () => Promise<ReadonlyArray<{ labels: Record<Label, string>; values: readonly number[] }>>,
): void {
  let pending: Promise<Awaited<ReturnType<typeof read>> | undefined> | undefined;
  // One read per scrape for all of them: the first gauge's collect starts it, the others share it.
  const shared = () => {
    pending ??= read().catch(() => undefined);
    const current = pending;
    setImmediate(() => {
      if (pending === current) pending = undefined;
    });
    return current;
  };
  gauges.forEach(({ name, help }, index) => {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of (await shared()) ?? []) {
          const value = row.values[index];
          if (value !== undefined) this.set(row.labels, value);
        }
      },
    });
  });
}

/**
 * `GET /metrics` in Prometheus' text format, and the HTTP series every request Fastify answers adds to:
 * requests and their duration by method, route pattern (`/api/links/:id`, never the raw URL: a label per
 * link would grow without end) and status. The redirect's fast paths never reach Fastify: they are
 * counted by `sniplink_redirects_total` alone.
 */
export function serveMetrics(app: FastifyInstance, deps: MetricsDeps): void {
  const { registry } = deps;
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'sniplink_http_requests_total',
    help: 'HTTP requests answered by the app (not the redirect fast paths), by route pattern',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'sniplink_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route pattern',
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: routeOf(request), status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1_000);
    done();
  });
  const expected = deps.token === undefined ? undefined : digest(`Bearer ${deps.token}`);
  app.get('/metrics', { schema: METRICS }, async (request, reply) => {
    if (expected && !sameDigest(expected, request.headers.authorization)) {
      return refuse(reply);
    }
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}

/** The route's pattern; `unmatched` for a request no route took (a 404), so scanners add no series. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

function refuse(reply: FastifyReply) {
  return reply
    .code(401)
    .header('www-authenticate', 'Bearer realm="metrics"')
    .send({ code: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared as digests, in constant time: the time taken tells nothing about the token. */
function sameDigest(expected: Buffer, header: string | undefined): boolean {
  return header !== undefined && timingSafeEqual(expected, digest(header));
}

const METRICS = operation({
  tag: 'Health',
  operationId: 'metrics',
  summary: "The process's metrics in Prometheus' text format (METRICS=on or METRICS_TOKEN)",
  answers: { 200: text('The series, Prometheus text format 0.0.4', 'text/plain') },
  // METRICS_TOKEN is set and the request did not send it.
  errors: { 401: ['UNAUTHORIZED'] },
});
