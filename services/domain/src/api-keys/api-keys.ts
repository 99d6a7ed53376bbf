import {
  type ApiKeyEvent,
  type ApiKeyRevoker,
  type ApiKeyScope,
  apiKeyEvents,
  type Encrypted,
  MAX_API_KEYS,
} from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

/** A user's key stream `apikeys-{userId}`, folded: the keys not yet revoked, by id. */
export interface ApiKeysState {
  live: ReadonlySet<string>;
}

/** The key's secret is made by the service; the decider sees only what the log keeps of it. */
export type ApiKeysCommand =
  | {
      type: 'CreateApiKey';
      keyId: string;
      name: Encrypted;
      scopes: ApiKeyScope[];
      hint: string;
      expiresAt: Date | null;
    }
  | { type: 'RevokeApiKey'; keyId: string; by: Exclude<ApiKeyRevoker, 'erasure'> }
  /** Erasure: every key still live ends (none: nothing happens). */
  | { type: 'RevokeAllApiKeys' };

const initialState = (): ApiKeysState => ({ live: new Set() });

function evolve(state: ApiKeysState, event: ApiKeyEvent): ApiKeysState {
  switch (event.type) {
    case 'ApiKeyCreated':
      return { live: new Set([...state.live, event.data.keyId]) };
    case 'ApiKeyRevoked': {
      const live = new Set(state.live);
      live.delete(event.data.keyId);
      return { live };
    }
    default:
      return exhaustive(event);
  }
}

function decide(command: ApiKeysCommand, state: ApiKeysState): ApiKeyEvent[] {
  switch (command.type) {
    case 'CreateApiKey':
      return create(command, state);
    case 'RevokeApiKey':
      // A key revoked already, or never this user's, is not found: no event, and no hint it exists.
      if (!state.live.has(command.keyId)) throw new NotFoundError('No such API key');
      return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, by: command.by } }];
    case 'RevokeAllApiKeys':
      return [...state.live].map((keyId) => ({ type: 'ApiKeyRevoked', data: { keyId, by: 'erasure' } }));
    default:
      return exhaustive(command);
  }
}

function create(
  command: Extract<ApiKeysCommand, { type: 'CreateApiKey' }>,
  state: ApiKeysState,
): ApiKeyEvent[] {
  if (state.live.size >= MAX_API_KEYS) {
    throw new ConflictError(
      'CONFLICT',
      `An account holds at most ${MAX_API_KEYS} API keys: revoke one you no longer use first`,
    );
  }
  const { keyId, name, scopes, hint, expiresAt } = command;
  return [
    {
      type: 'ApiKeyCreated',
      data: { keyId, name, scopes, hint, expiresAt: expiresAt?.toISOString() ?? null },
    },
  ];
}

/** A user's API keys: at most MAX_API_KEYS live at once; a revoke ends one of theirs, once. */
export const apiKeysDecider = deciderOf(apiKeyEvents, { initialState, evolve, decide });
