/**
 * Ports for what the processes of one deployment tell each other and hold against each other. Callers
 * (projections, services) use only these; the adapters over PostgreSQL are PgNotifications.channel and
 * PgAdvisoryLocks, wired by the composition root.
 */

/**
 * A named topic every process can publish to and hear, best effort: a message may be lost (it is a hint,
 * never the only record). An empty payload means "you may have missed some: look again".
 */
export interface Broadcast {
  /** Tells this process's listeners at once and the other processes' soon after; never throws. */
  publish(payload: string): Promise<void>;
  /** Resolves, with the way to stop listening, once messages published from then on will be heard. */
  listen(handler: (payload: string) => void): Promise<() => void>;
}

/** A lock that one holder among every process has until it releases it or loses it. */
export interface HeldLock {
  /** True once the lock may have passed to another holder (its holder's connection failed). */
  lost(): boolean;
  release(): Promise<void>;
}

export interface ExclusiveLocks {
  /** Takes the lock `name` if no one holds it (undefined if someone does); `onLost` is told if it is lost. */
  tryAcquire(name: string, onLost?: () => void): Promise<HeldLock | undefined>;
}
