import { type ApiKeyEvent, MAX_API_KEYS } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { type ApiKeysCommand, apiKeysDecider } from './api-keys';

const given = specFor(apiKeysDecider);

const keyId = (n: number) => `01890000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const create = (n: number): ApiKeysCommand => ({
  type: 'CreateApiKey',
  keyId: keyId(n),
  name: 'enc:v1:name',
  scopes: ['links:read'],
  hint: 'sk_live_AbCd…wxYz',
  expiresAt: new Date('2027-01-01T00:00:00.000Z'),
});
const created = (n: number): ApiKeyEvent => ({
  type: 'ApiKeyCreated',
  data: {
    keyId: keyId(n),
    name: 'enc:v1:name',
    scopes: ['links:read'],
    hint: 'sk_live_AbCd…wxYz',
    expiresAt: '2027-01-01T00:00:00.000Z',
  },
});
const revoked = (n: number, by: 'owner' | 'admin' | 'erasure'): ApiKeyEvent => ({
  type: 'ApiKeyRevoked',
  data: { keyId: keyId(n), by },
});

describe("a user's API keys", () => {
  it('creates a key up to the limit of live keys; a revoked one makes room', () => {
    given([])
      .when(create(1))
      .then([created(1)]);
    const full = Array.from({ length: MAX_API_KEYS }, (_, i) => created(i + 1));
    given(full).when(create(99)).thenThrows({ status: 409 });
    given([...full, revoked(1, 'owner')])
      .when(create(99))
      .then([created(99)]);
  });

  it('revokes a live key once, and knows no key that is not live', () => {
    given([created(1)])
      .when({ type: 'RevokeApiKey', keyId: keyId(1), by: 'admin' })
      .then([revoked(1, 'admin')]);
    given([created(1), revoked(1, 'owner')])
      .when({ type: 'RevokeApiKey', keyId: keyId(1), by: 'owner' })
      .thenThrows({ status: 404 });
    given([])
      .when({ type: 'RevokeApiKey', keyId: keyId(1), by: 'owner' })
      .thenThrows({ status: 404 });
  });

  it('revokes every live key on erasure, and nothing when none is live', () => {
    given([created(1), created(2), created(3), revoked(2, 'owner')])
      .when({ type: 'RevokeAllApiKeys' })
      .then([revoked(1, 'erasure'), revoked(3, 'erasure')]);
    given([]).when({ type: 'RevokeAllApiKeys' }).then([]);
  });
});
