import type {
  Announcement,
  AnnouncementAudience,
  AnnouncementType,
  UserAnnouncement,
} from '@sniplink/contracts';
import {
  type AnnouncementState,
  announcementDecider,
  announcementDismissalsDecider,
  announcementDismissalsStreamId,
  announcementStreamId,
  audiencesOf,
  isAnnouncementFor,
  NotFoundError,
  UnauthorizedError,
} from '@sniplink/domain';
import {
  type Clock,
  type Database,
  type EventStore,
  type HandleOptions,
  handleCommand,
  type IdSource,
  KeyedMutex,
  type LogPosition,
  loadState,
} from '@sniplink/platform';
import { allAnnouncements, announcementById, announcementsShownTo } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AccountService, ReadModelWaiter } from '../accounts/accounts';

export interface AnnouncementServiceDeps {
  eventStore: EventStore;
  db: Kysely<Database>;
  readModels: ReadModelWaiter;
  /** Who the signed-in user is now: Pro or not, admin or not. */
  accounts: Pick<AccountService, 'user'>;
  clock: Clock;
  ids: IdSource;
}

/** What an admin publishes, as the API has checked and defaulted it. */
export interface NewAnnouncement {
  title: string;
  message: string;
  type: AnnouncementType;
  targetAudience: AnnouncementAudience;
  isActive: boolean;
}

const PROJECTION = 'announcements';
const notFound = () => new NotFoundError('No such announcement');
/** A malformed id names no announcement: 404, as an unknown one (never a database error on a uuid column). */
const isAnnouncementId = (id: string) => z.uuid().safeParse(id).success;

/**
 * Announcements: admins publish them and switch them off, on an
 * announcement's own stream; users are shown the active ones for their audience and dismiss them for
 * good, on a dismissals stream of their own. The acting admin or user is the command context's actor.
 */
export class AnnouncementService {
  /** One user's dismissals one at a time in this process (a double click resolves without a conflict). */
  private readonly perUser = new KeyedMutex();
  private readonly stamped: HandleOptions;

  constructor(private readonly deps: AnnouncementServiceDeps) {
    this.stamped = { clock: deps.clock };
  }

  /** Every announcement, newest first. */
  list(): Promise<Announcement[]> {
    return allAnnouncements(this.deps.db);
  }

  async publish({ isActive, ...content }: NewAnnouncement): Promise<Announcement> {
    const announcementId = this.deps.ids.newId();
    const { position } = await handleCommand(
      this.deps.eventStore,
      announcementStreamId(announcementId),
      announcementDecider,
      { type: 'PublishAnnouncement', announcementId, content, isActive },
      this.stamped,
    );
    return this.afterChange(announcementId, position);
  }

  /** Switches an announcement off (or on again); the same state again changes nothing. */
  async setActive(announcementId: string, isActive: boolean): Promise<Announcement> {
    if (!isAnnouncementId(announcementId)) throw notFound();
    const { position } = await handleCommand(
      this.deps.eventStore,
      announcementStreamId(announcementId),
      announcementDecider,
      { type: 'SetAnnouncementActive', announcementId, isActive },
      this.stamped,
    );
    return this.afterChange(announcementId, position);
  }

  /** The banners for this user: active, for their audiences, not dismissed; newest first. */
  async shownTo(userId: string): Promise<UserAnnouncement[]> {
    const audiences = audiencesOf(await this.viewer(userId));
    const shown = await announcementsShownTo(this.deps.db, userId, audiences);
    return shown.map(({ id, title, message, type, createdAt }) => ({ id, title, message, type, createdAt }));
  }

  /**
   * Dismisses an announcement for this user, for good; again, nothing more happens. One that does not
   * exist, or that was never for the user's audience, is not found.
   */
  async dismiss(userId: string, announcementId: string): Promise<void> {
    if (!isAnnouncementId(announcementId)) throw notFound();
    const [announcement, viewer] = await Promise.all([this.stateOf(announcementId), this.viewer(userId)]);
    if (!announcement.content || !isAnnouncementFor(announcement.content.targetAudience, viewer))
      throw notFound();
    const { position } = await this.perUser.run(userId, () =>
      handleCommand(
        this.deps.eventStore,
        announcementDismissalsStreamId(userId),
        announcementDismissalsDecider,
        { type: 'DismissAnnouncement', announcementId },
        this.stamped,
      ),
    );
    // The next look at the dashboard no longer finds it.
    if (position) await this.deps.readModels.waitFor(PROJECTION, position);
  }

  private async viewer(userId: string) {
    const user = await this.deps.accounts.user(userId);
    if (!user) throw new UnauthorizedError();
    return { pro: user.subscriptionStatus === 'active', admin: user.isAdmin };
  }

  private stateOf(announcementId: string): Promise<AnnouncementState> {
    return loadState(this.deps.eventStore, announcementStreamId(announcementId), announcementDecider);
  }

  /**
   * The announcement once the read model shows the change (read-your-writes: the list refreshes next);
   * if that wait gives up, as its stream has it, which is stored all the same.
   */
  private async afterChange(announcementId: string, position: LogPosition | null): Promise<Announcement> {
    if (position) await this.deps.readModels.waitFor(PROJECTION, position);
    return (await announcementById(this.deps.db, announcementId)) ?? this.fromStream(announcementId);
  }

  private async fromStream(announcementId: string): Promise<Announcement> {
    const recorded = await this.deps.eventStore.readStream(announcementStreamId(announcementId));
    const state = recorded
      .filter((event) => announcementDecider.events.includes(event))
      .reduce(announcementDecider.evolve, announcementDecider.initialState());
    const createdAt = recorded[0]?.occurredAt;
    if (!state.content || !createdAt) throw notFound();
    return {
      id: announcementId,
      ...state.content,
      isActive: state.isActive,
      createdAt: createdAt.toISOString(),
    };
  }
}
