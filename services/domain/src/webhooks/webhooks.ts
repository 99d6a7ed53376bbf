import {
  type Encrypted,
  MAX_WEBHOOKS,
  type WebhookEvent,
  type WebhookEventType,
  webhookEvents,
} from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

/** A user's webhook stream `webhooks-{userId}`, folded: the endpoints not deleted, and which are disabled. */
export interface WebhooksState {
  live: ReadonlySet<string>;
  disabled: ReadonlySet<string>;
}

/** The URL is checked (and its name resolved) by the service; the decider sees only what the log keeps. */
export type WebhooksCommand =
  | { type: 'CreateWebhook'; webhookId: string; url: Encrypted; events: WebhookEventType[] }
  | { type: 'DeleteWebhook'; webhookId: string }
  | { type: 'RotateWebhookSecret'; webhookId: string }
  | { type: 'DisableWebhook'; webhookId: string; failingSince: Date }
  /** Erasure: every endpoint still live ends (none: nothing happens). */
  | { type: 'DeleteAllWebhooks' };

const initialState = (): WebhooksState => ({ live: new Set(), disabled: new Set() });

const without = (set: ReadonlySet<string>, id: string) => new Set([...set].filter((each) => each !== id));

function evolve(state: WebhooksState, event: WebhookEvent): WebhooksState {
  switch (event.type) {
    case 'WebhookCreated':
      return { ...state, live: new Set([...state.live, event.data.webhookId]) };
    case 'WebhookDeleted':
      return {
        live: without(state.live, event.data.webhookId),
        disabled: without(state.disabled, event.data.webhookId),
      };
    case 'WebhookSecretRotated':
      return state;
    case 'WebhookDisabled':
      return { ...state, disabled: new Set([...state.disabled, event.data.webhookId]) };
    default:
      return exhaustive(event);
  }
}

/** An endpoint deleted already, or never this user's, is not found: no event, and no hint it exists. */
function mustBeLive(state: WebhooksState, webhookId: string): void {
  if (!state.live.has(webhookId)) throw new NotFoundError('No such webhook');
}

function decide(command: WebhooksCommand, state: WebhooksState): WebhookEvent[] {
  switch (command.type) {
    case 'CreateWebhook':
      return create(command, state);
    case 'DeleteWebhook':
      mustBeLive(state, command.webhookId);
      return [{ type: 'WebhookDeleted', data: { webhookId: command.webhookId, by: 'owner' } }];
    case 'RotateWebhookSecret':
      mustBeLive(state, command.webhookId);
      return [{ type: 'WebhookSecretRotated', data: { webhookId: command.webhookId } }];
    case 'DisableWebhook':
      mustBeLive(state, command.webhookId);
      // Disabled already (another process gave up on it first): nothing new to record.
      if (state.disabled.has(command.webhookId)) return [];
      return [
        {
          type: 'WebhookDisabled',
          data: { webhookId: command.webhookId, failingSince: command.failingSince.toISOString() },
        },
      ];
    case 'DeleteAllWebhooks':
      return [...state.live].map((webhookId) => ({
        type: 'WebhookDeleted',
        data: { webhookId, by: 'erasure' },
      }));
    default:
      return exhaustive(command);
  }
}

function create(
  command: Extract<WebhooksCommand, { type: 'CreateWebhook' }>,
  state: WebhooksState,
): WebhookEvent[] {
  if (state.live.size >= MAX_WEBHOOKS) {
    throw new ConflictError(
      'CONFLICT',
      `An account holds at most ${MAX_WEBHOOKS} webhooks: delete one you no longer use first`,
    );
  }
  const { webhookId, url, events } = command;
  return [{ type: 'WebhookCreated', data: { webhookId, url, events } }];
}

/** A user's webhooks: at most MAX_WEBHOOKS live at once; each deleted, rotated or disabled once it is live. */
export const webhooksDecider = deciderOf(webhookEvents, { initialState, evolve, decide });
