import { describe, expect, it } from 'vitest';
import { clickId } from './redirect-route';

describe('click ids', () => {
  it('are distinct, short, and safe in a click message', () => {
    const ids = Array.from({ length: 100_000 }, () => clickId());
    expect(new Set(ids).size).toBe(100_000);
    expect(ids.filter((id) => !/^[A-Za-z0-9_-]{13,20}$/.test(id))).toEqual([]);
  });
});
