import type {
  Announcement,
  AnnouncementAudience,
  AnnouncementType,
  UserAnnouncement,
} from '@sniplink/contracts';
import { announcementDismissalsStream, announcementStream } from '@sniplink/contracts';
import {
  type AnnouncementState,
  announcementDecider,
  announcementDismissalsDecider,
  audiencesOf,
  isAnnouncementFor,
  NotFoundError,
  UnauthorizedError,
} from '@sniplink/domain';
import { commandHandler } from '@sniplink/platform';
import {
  allAnnouncements,
  announcementById,
  announcementsProjection,
  announcementsShownTo,
} from '@sniplink/projections';
import { z } from 'zod';
import type { AccountService } from '../accounts/accounts';
import type { ServiceDeps } from '../shared/service-deps';

export interface AnnouncementServiceDeps extends ServiceDeps {
  /** Who the signed-in user is now: Pro or not, admin or not. */
  accounts: Pick<AccountService, 'user'>;
}

/** What an admin publishes, as the API has checked and defaulted it. */
export interface NewAnnouncement {
  title: string;
  message: string;
  type: AnnouncementType;
  targetAudience: AnnouncementAudience;
  isActive: boolean;
}

const notFound = () => new NotFoundError('No such announcement');
/** A malformed id names no announcement: 404, as an unknown one (never a database error on a uuid column). */
const isAnnouncementId = (id: string) => z.uuid().safeParse(id).success;

/**
 * Announcements: admins publish them and switch them off, on an
 * announcement's own stream; users are shown the active ones for their audience and dismiss them for
 * good, on a dismissals stream of their own. The acting admin or user is the command context's actor.
 */
export class AnnouncementService {
  /** An announcement's stream; a malformed id names none (404). The list refreshes from the read model next. */
  private readonly announcements;
  /** One user's dismissals, one at a time in this process (a double click resolves without a conflict). */
  private readonly dismissals;

  constructor(private readonly deps: AnnouncementServiceDeps) {
    this.announcements = commandHandler(deps, {
      decider: announcementDecider,
      stream: announcementStream,
      projection: announcementsProjection,
      guard: (announcementId) => {
        if (!isAnnouncementId(announcementId)) throw notFound();
      },
    });
    this.dismissals = commandHandler(deps, {
      decider: announcementDismissalsDecider,
      stream: announcementDismissalsStream,
      // The next look at the dashboard no longer finds it.
      projection: announcementsProjection,
    });
  }

  /** Every announcement, newest first. */
  list(): Promise<Announcement[]> {
    return allAnnouncements(this.deps.db);
  }

  async publish({ isActive, ...content }: NewAnnouncement): Promise<Announcement> {
    const announcementId = this.deps.ids.newId();
    await this.announcements.handle(announcementId, {
      type: 'PublishAnnouncement',
      announcementId,
      content,
      isActive,
    });
    return this.afterChange(announcementId);
  }

  /** Switches an announcement off (or on again); the same state again changes nothing. */
  async setActive(announcementId: string, isActive: boolean): Promise<Announcement> {
    await this.announcements.handle(announcementId, {
      type: 'SetAnnouncementActive',
      announcementId,
      isActive,
    });
    return this.afterChange(announcementId);
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
    await this.dismissals.handle(userId, { type: 'DismissAnnouncement', announcementId });
  }

  private async viewer(userId: string) {
    const user = await this.deps.accounts.user(userId);
    if (!user) throw new UnauthorizedError();
    return { pro: user.subscriptionStatus === 'active', admin: user.isAdmin };
  }

  private stateOf(announcementId: string): Promise<AnnouncementState> {
    return this.announcements.load(announcementId);
  }

  /**
   * The announcement as the read model shows it once the command's wait is over; if that wait gave up,
   * as its stream has it, which is stored all the same.
   */
  private async afterChange(announcementId: string): Promise<Announcement> {
    return (await announcementById(this.deps.db, announcementId)) ?? this.fromStream(announcementId);
  }

  private async fromStream(announcementId: string): Promise<Announcement> {
    const recorded = await this.deps.eventStore.readStream(announcementStream.id(announcementId));
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
