import type { Decider, Stream } from '@sniplink/contracts';
import { emailClaimStream, userStream } from '@sniplink/contracts/accounts/events';
import { announcementDismissalsStream, announcementStream } from '@sniplink/contracts/admin/announcements';
import { configStream } from '@sniplink/contracts/admin/config';
import { adminRosterStream } from '@sniplink/contracts/admin/users';
import { adminDocStream } from '@sniplink/contracts/admin-docs/events';
import { apiKeyStream } from '@sniplink/contracts/api-keys/events';
import {
  billingCustomerStream,
  billingStream,
  subscriptionClaimStream,
} from '@sniplink/contracts/billing/events';
import { pageCopyStream } from '@sniplink/contracts/content/events';
import { disclosureStream } from '@sniplink/contracts/event-console/events';
import { linkStream, shortCodeStream } from '@sniplink/contracts/links/events';
import { premiumBuyerStream, premiumSlugStream } from '@sniplink/contracts/marketplace/events';
import { prohibitedWordStream, protectedBrandStream } from '@sniplink/contracts/moderation/events';
import { seoStream } from '@sniplink/contracts/seo/events';
import { ticketStream } from '@sniplink/contracts/support/events';
import { userDecider } from '../accounts/decide';
import { emailClaimDecider } from '../accounts/email-claim';
import { adminRosterDecider } from '../admin/admin-roster';
import { announcementDecider, announcementDismissalsDecider } from '../admin/announcements';
import { configDecider } from '../admin/config';
import { adminDocDecider } from '../admin-docs/admin-doc';
import { apiKeysDecider } from '../api-keys/api-keys';
import { billingDecider } from '../billing/billing';
import { billingClaimDecider } from '../billing/ownership';
import { pageCopyDecider } from '../content/page-copy';
import type { DomainEvent } from '../decider';
import { linkDecider } from '../links/link';
import { shortCodeDecider } from '../links/short-code';
import { premiumBuyerDecider } from '../marketplace/premium-buyer';
import { premiumSlugDecider } from '../marketplace/premium-slug';
import { prohibitedWordDecider, protectedBrandDecider } from '../moderation/lists';
import { seoSettingsDecider } from '../seo/seo-settings';
import { ticketDecider } from '../support/ticket';
import { disclosureDecider } from './disclosure';

/** What folding a stream needs of its decider (the console never decides). */
export type StreamFold = Pick<Decider<never, unknown, DomainEvent>, 'events' | 'initialState' | 'evolve'>;

const fold = <State, Event extends DomainEvent>(
  decider: Pick<Decider<never, State, Event>, 'events' | 'initialState' | 'evolve'>,
): StreamFold => decider as unknown as StreamFold;

/**
 * Each kind of stream with the decider its commands run through: the same pairs the services' command
 * handlers are built from, so folding a stream here gives the state its next command would be decided on.
 */
const streamFolds: readonly (readonly [Stream, StreamFold])[] = [
  [userStream, fold(userDecider)],
  [emailClaimStream, fold(emailClaimDecider)],
  [adminRosterStream, fold(adminRosterDecider)],
  [announcementStream, fold(announcementDecider)],
  [announcementDismissalsStream, fold(announcementDismissalsDecider)],
  [configStream, fold(configDecider)],
  [adminDocStream, fold(adminDocDecider)],
  [apiKeyStream, fold(apiKeysDecider)],
  [billingStream, fold(billingDecider)],
  [billingCustomerStream, fold(billingClaimDecider)],
  [subscriptionClaimStream, fold(billingClaimDecider)],
  [pageCopyStream, fold(pageCopyDecider)],
  [linkStream, fold(linkDecider)],
  [shortCodeStream, fold(shortCodeDecider)],
  [premiumSlugStream, fold(premiumSlugDecider)],
  [premiumBuyerStream, fold(premiumBuyerDecider)],
  [prohibitedWordStream, fold(prohibitedWordDecider)],
  [protectedBrandStream, fold(protectedBrandDecider)],
  [seoStream, fold(seoSettingsDecider)],
  [ticketStream, fold(ticketDecider)],
  [disclosureStream, fold(disclosureDecider)],
];

/** Every kind of stream a decider writes: the streams an id may name (`ticket-{id}`, `user-{id}`). */
export const decidedStreams: readonly Stream[] = streamFolds.map(([stream]) => stream);

/**
 * The kind of a stream and the decider that folds it, or undefined for a stream no decider writes. Each
 * kind's prefix ends in `-`, so `billing-…` is never taken for a `billingcustomer-…`.
 */
export function streamKindOf(streamId: string): { stream: Stream; fold: StreamFold } | undefined {
  const found = streamFolds.find(([stream]) => stream.holds(streamId));
  return found && { stream: found[0], fold: found[1] };
}

/**
 * The state right after the event at `revision`: the decider's evolve over the stream's events from the
 * first up to that one, exactly as its command handler folds it.
 */
export function stateAfter(fold: StreamFold, events: readonly DomainEvent[]): unknown {
  return events.reduce((state, event) => fold.evolve(state, event), fold.initialState());
}
