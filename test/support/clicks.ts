import { randomUUID } from 'node:crypto';
import type { Click } from '@sniplink/contracts';

/** A click on `linkId`: a human's, on a desktop in the US with no referrer, now, unless `overrides` says otherwise. */
export function sampleClick(linkId: string, overrides: Partial<Click> = {}): Click {
  return {
    id: randomUUID(),
    linkId,
    code: 'abc',
    atMs: Date.now(),
    country: 'US',
    device: 'desktop',
    browser: 'Chrome',
    os: 'Windows',
    referrer: 'direct',
    bot: false,
    ...overrides,
  };
}
