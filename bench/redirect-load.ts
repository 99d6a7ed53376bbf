/**
 * The load generator of `bench:redirect`, in a process of its own so that it does not share an event loop
 * with the bench: `node --import tsx bench/redirect-load.ts <base url> <codes file> <connections> <seconds> [<req/s>]`.
 * GETs /s/<random code> with a browser User-Agent (so the clicks count as human), prints one JSON line.
 * COOKIE in the environment: sent with every request (a password-protected link's remembered password).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [baseUrl = '', codesFile = '', connections = '8', seconds = '10', rate] = process.argv.slice(2);
const codes = JSON.parse(readFileSync(codesFile, 'utf8')) as string[];
const pick = () => codes[Math.floor(Math.random() * codes.length)];

export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

process.stdout.write('START\n');
const result = await autocannon({
  url: baseUrl,
  connections: Number(connections),
  duration: Number(seconds),
  ...(rate ? { overallRate: Number(rate) } : {}),
  headers: {
    'user-agent': BROWSER_USER_AGENT,
    referer: 'https://news.ycombinator.com/',
    ...(process.env.COOKIE ? { cookie: process.env.COOKIE } : {}),
  },
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `/s/${pick()}` }),
    },
  ],
});
process.stdout.write(
  `${JSON.stringify({
    seconds: result.duration,
    total: result.requests.total,
    perSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    ok2xx: result['2xx'],
    ok3xx: result['3xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
