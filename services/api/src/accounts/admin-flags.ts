import {
  ADMIN_ROSTER,
  type AdminActor,
  type AdminRosterEvent,
  adminActor,
  adminRosterStream,
  userStream,
} from '@sniplink/contracts';
import {
  type AdminRosterCommand,
  type AdminRosterState,
  adminRosterDecider,
  NotFoundError,
  type UserCommand,
  type UserState,
  type UserStreamEvent,
  userDecider,
} from '@sniplink/domain';
import {
  type Clock,
  type CommandPipeline,
  commandHandler,
  currentCommandContext,
  type EventStore,
  KeyedMutex,
} from '@sniplink/platform';

export interface AdminFlagDeps {
  eventStore: EventStore;
  clock: Clock;
  /** Runs a command on the user's stream, recording `actorId`, and waits for the users read model. */
  userCommand(userId: string, command: UserCommand, actorId: AdminActor): Promise<unknown>;
}

/**
 * Admins as events (docs/architecture.md, "Admins"). The `admin-roster` stream decides (at least one admin
 * remains, an acting admin must still be one) and is appended first, at its expected revision; the user's
 * stream then mirrors its word (`AdminGranted` / `AdminRevoked` with the roster's revision), which is what
 * the users read model, the user JSON and the admin gate show. A failure between the two leaves the user's
 * flag as it was; the same change again, or the reconciliation at start, completes it.
 */
export class AdminFlags {
  /** Admin changes in this process run one after another; across processes the roster's revision orders them. */
  private readonly mutex = new KeyedMutex();
  private readonly roster: CommandPipeline<AdminRosterCommand, AdminRosterState, AdminRosterEvent>;
  /** The user's stream, read only: its commands go through `userCommand`, which waits for the read model. */
  private readonly users: Pick<CommandPipeline<unknown, UserState, UserStreamEvent>, 'load'>;

  constructor(private readonly deps: AdminFlagDeps) {
    this.roster = commandHandler(deps, { decider: adminRosterDecider, stream: adminRosterStream });
    this.users = commandHandler(deps, { decider: userDecider, stream: userStream });
  }

  /** Grants or removes the flag on an existing account, on behalf of `by`. */
  async set(userId: string, isAdmin: boolean, by: AdminActor = actingNow()): Promise<void> {
    await this.requireAccount(userId);
    await this.changeRoster({ type: isAdmin ? 'AddAdmin' : 'RemoveAdmin', userId, by }, by);
  }

  /** An account being erased leaves the roster, even as the last admin (its stream's erasure drops the flag). */
  async leaveOnErasure(userId: string): Promise<void> {
    await this.changeRoster({ type: 'RemoveAdmin', userId, by: 'system', erasure: true }, 'system');
  }

  /**
   * Run at start, by `system`: the user streams the roster is ahead of (a change that stopped between its two
   * appends) are completed; then each account named in `ADMIN_EMAILS` whose stream has never had an admin
   * event is granted, once: accounts that signed up before admins were events keep their flag, and an
   * address added to `ADMIN_EMAILS` later makes its account an admin at the next start. A flag revoked since
   * stays revoked.
   */
  async reconcile(configuredAdmins: readonly string[]): Promise<void> {
    const roster = await this.roster.load(ADMIN_ROSTER);
    for (const userId of [...roster.members, ...roster.former]) {
      const user = await this.userState(userId);
      if (user.status === 'erased' && roster.members.includes(userId)) await this.leaveOnErasure(userId);
      if (user.status !== 'active') continue;
      if (user.isAdmin !== roster.members.includes(userId)) await this.mirror(userId, roster, 'system');
    }
    for (const userId of configuredAdmins) {
      const user = await this.userState(userId);
      if (user.status === 'active' && user.adminRosterRevision === null)
        await this.set(userId, true, 'system');
    }
  }

  private changeRoster(command: AdminRosterCommand, by: AdminActor): Promise<void> {
    return this.mutex.run(ADMIN_ROSTER, async () => {
      const { state } = await this.roster.handle(ADMIN_ROSTER, command, { actorId: by });
      if ((await this.userState(command.userId)).status === 'active')
        await this.mirror(command.userId, state, by);
    });
  }

  /** The user's stream takes the roster's word on them, versioned by the roster's revision. */
  private async mirror(userId: string, roster: AdminRosterState, by: AdminActor): Promise<void> {
    if (roster.revision < 0) return;
    const type = roster.members.includes(userId) ? 'GrantAdmin' : 'RevokeAdmin';
    await this.deps.userCommand(userId, { type, by, rosterRevision: roster.revision }, by);
  }

  private async requireAccount(userId: string): Promise<void> {
    if ((await this.userState(userId)).status !== 'active') throw new NotFoundError('No such user');
  }

  private userState(userId: string) {
    return this.users.load(userId);
  }
}

/** Whoever runs the command now: the signed-in admin, `operator` (a CLI) or `system`. */
function actingNow(): AdminActor {
  return adminActor.parse(currentCommandContext()?.actorId ?? 'system');
}
