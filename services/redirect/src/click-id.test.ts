import { describe, expect, it } from 'vitest';
import { clickId } from './redirect-route';

describe('click ids from the random pool', () => {
  it('are distinct UUID v7s, across many refills of the pool', () => {
    const ids = Array.from({ length: 10_000 }, () => clickId());
    expect(new Set(ids).size).toBe(10_000);
    for (const id of ids.slice(0, 300))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
