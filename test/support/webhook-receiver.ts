import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed: `{ id, type, time, data }`. */
  json: { id: string; type: string; time: string; data: Record<string, unknown> };
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status the next deliveries get, in order; once used up, `otherwise`. */
  answers: number[];
  otherwise: number;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (node:http): it keeps every delivery and answers as it is told. */
export async function startWebhookReceiver(otherwise = 200): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = { received, answers: [], otherwise };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body, json: JSON.parse(body), at: Date.now() });
      response.statusCode = receiver.answers.shift() ?? receiver.otherwise;
      response.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
