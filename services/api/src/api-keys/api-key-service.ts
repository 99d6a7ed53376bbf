import {
  type ApiKey,
  type ApiKeyEvent,
  apiKeyStream,
  type CreatedApiKey,
  type createApiKeyBody,
} from '@sniplink/contracts';
import {
  type ApiKeysCommand,
  type ApiKeysState,
  apiKeysDecider,
  NotFoundError,
  ValidationError,
} from '@sniplink/domain';
import { type CommandPipeline, commandHandler, type Keyring } from '@sniplink/platform';
import type { z } from 'zod';
import type { ServiceDeps } from '../shared/service-deps';
import { type ApiKeyStore, hintOf, newSecret, scopesOf } from './key-store';

export interface ApiKeyServiceDeps extends Pick<ServiceDeps, 'eventStore' | 'clock' | 'ids'> {
  keyring: Keyring;
  store: ApiKeyStore;
}

type NewKey = z.output<typeof createApiKeyBody>;

/**
 * A user's API keys: their life is the user's key stream `apikeys-{userId}` (created, revoked, with the
 * acting user); the hash that lets a call in is the store's row. A create appends first and stores the row
 * after (a crash between leaves a key no one ever saw); a revoke appends first and deletes the row after,
 * and a revoke of a key the stream has already ended deletes the row again, so a retry completes it.
 */
export class ApiKeyService {
  private readonly keys: CommandPipeline<ApiKeysCommand, ApiKeysState, ApiKeyEvent>;

  constructor(private readonly deps: ApiKeyServiceDeps) {
    this.keys = commandHandler(deps, { decider: apiKeysDecider, stream: apiKeyStream });
  }

  /** The store every bearer call is checked against. */
  get store(): ApiKeyStore {
    return this.deps.store;
  }

  /** A new key; its secret is in this answer and nowhere else. */
  async create(userId: string, { name, scopes, expiresAt }: NewKey): Promise<CreatedApiKey> {
    const now = this.deps.clock.now();
    const expiry = expiresAt ? new Date(expiresAt) : null;
    if (expiry && expiry <= now) throw new ValidationError('expiresAt must be in the future', 'expiresAt');
    const keyId = this.deps.ids.newId();
    const secret = newSecret();
    const hint = hintOf(secret);
    await this.keys.handle(userId, {
      type: 'CreateApiKey',
      keyId,
      name: await this.deps.keyring.encrypt(userId, name),
      scopes,
      hint,
      expiresAt: expiry,
    });
    await this.store.insert({ keyId, userId, secret, name, scopes, createdAt: now, expiresAt: expiry });
    return {
      id: keyId,
      name,
      scopes,
      hint,
      createdAt: now.toISOString(),
      lastUsedAt: null,
      expiresAt: expiry?.toISOString() ?? null,
      secret,
    };
  }

  async list(userId: string): Promise<ApiKey[]> {
    const rows = await this.store.listOf(userId);
    return rows.map((row) => ({
      id: row.key_id,
      name: row.name,
      scopes: scopesOf(row),
      hint: row.hint,
      createdAt: row.created_at.toISOString(),
      lastUsedAt: row.last_used_at?.toISOString() ?? null,
      expiresAt: row.expires_at?.toISOString() ?? null,
    }));
  }

  /** Ends one of the user's keys (`by` the owner, or an admin in the console): 404 when it is not theirs. */
  async revoke(userId: string, keyId: string, by: 'owner' | 'admin'): Promise<void> {
    if (!(await this.store.listOf(userId)).some((key) => key.key_id === keyId)) {
      throw new NotFoundError('No such API key');
    }
    await this.keys.handle(userId, { type: 'RevokeApiKey', keyId, by }).catch((error: unknown) => {
      // The stream ended it already (a revoke cut short before the row went): finish it.
      if (!(error instanceof NotFoundError)) throw error;
    });
    await this.store.remove(userId, keyId);
  }

  /** The account is being erased: every key it holds ends, in the log and in the store. */
  async revokeAllOf(userId: string): Promise<void> {
    await this.keys.handle(userId, { type: 'RevokeAllApiKeys' });
    await this.store.removeAllOf(userId);
  }
}
