/**
 * The ceiling of `bench:redirect`: a bare `node:http` server that answers every request with the same 302
 * the redirect sends. `node --import tsx bench/bare-redirect-server.ts <port>`; prints LISTENING.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
createServer((_request, response) => {
  response.writeHead(302, {
    location: 'https://example.com/a/long/path',
    'cache-control': 'private, no-store',
    // The redirect's security headers on a plain-http site (api/src/http/security-headers.ts).
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  });
  response.end();
}).listen(port, '127.0.0.1', () => process.stdout.write('LISTENING\n'));
