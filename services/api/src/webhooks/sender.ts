import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '@sniplink/contracts';
import type { PinnedAddress } from './address-guard';
import { signatureHeader } from './signing';

/** A receiver has this long to answer; a slow one is a failure, retried later. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Only this much of an answer is read: the status is what counts. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface DeliveryOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Delivery {
  url: string;
  /** The checked address to connect to; the URL's host still names the server (Host header, TLS). */
  pinned: PinnedAddress;
  eventId: string;
  body: string;
  secret: string;
  now: Date;
}

/** POSTs one signed delivery; never throws: a refused connection or a timeout is an outcome too. */
export function send(delivery: Delivery): Promise<DeliveryOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(delivery.url);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const { address, family } = delivery.pinned;
    if (options.all)
      (callback as (e: null, all: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sniplink-Webhooks/1',
          'idempotency-key': delivery.eventId,
          [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(
            delivery.secret,
            delivery.body,
            Math.floor(delivery.now.getTime() / 1000),
          ),
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () =>
          resolve({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 10 seconds')));
    request.on('error', (error) =>
      resolve({ statusCode: null, durationMs: elapsed(), error: error.message }),
    );
    request.end(delivery.body);
  });
}
