import {
  checkSettingValue,
  defaultSettings,
  type LinkLimits,
  type SettingValues,
  settingOfKey,
} from '@sniplink/contracts';
import type { Database, Logger, ReadModel } from '@sniplink/platform';
import { configEntries, configProjection } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import { coalesced } from './coalesced';

/**
 * The port through which the app reads the admin's settings (the known config keys): the values in force,
 * from memory, so that a link create or a demo call costs no query. Commands carry the values they were
 * decided under (`TakeLinkSlot` carries the link limits), so the deciders stay pure.
 */
export interface Settings {
  current(): SettingValues;
}

/** The link allowances in force, as `TakeLinkSlot` and the user JSON take them. */
export const linkLimitsOf = (settings: Settings): LinkLimits => {
  const { freeLinkLimit, proMonthlyLinkLimit } = settings.current();
  return { free: freeLinkLimit, proMonthly: proMonthlyLinkLimit };
};

/** Settings that never change (tests and CLIs): the defaults, or the values given. */
export const fixedSettings = (values: Partial<SettingValues> = {}): Settings => {
  const fixed = { ...defaultSettings, ...values };
  return { current: () => fixed };
};

/** Tells its listener each time the config read model advances (`ProjectionProgress.onAdvance`). */
export interface ReadModelFollower {
  onAdvance(readModel: ReadModel, listener: () => void): Promise<() => void>;
}

export interface LiveSettingsDeps {
  db: Kysely<Database>;
  progress: ReadModelFollower;
  log: Logger;
  /** The defaults in force where the environment sets one (`DEMO_MAX_PER_VISITOR`, `FREE_LINK_LIMIT`, `PRO_LINK_LIMIT`). */
  defaults?: Partial<SettingValues>;
  /** A safety net: read again this often even if no progress was heard (default 30 s). */
  refreshEveryMs?: number;
}

/**
 * The settings of one process, kept current without a restart: read from the config read model at start,
 * again each time that read model advances in any process (projection progress, heard through the
 * database's notifications), and every 30 s in case a notification was lost. A change made in this process
 * is read at once (`refresh`, awaited by the config routes before they answer).
 */
export class LiveSettings implements Settings {
  private readonly defaults: SettingValues;
  private values: SettingValues;
  private stopFollowing: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: LiveSettingsDeps) {
    this.defaults = { ...defaultSettings, ...deps.defaults };
    this.values = this.defaults;
  }

  current(): SettingValues {
    return this.values;
  }

  /** The values in force while no entry is stored: the contracts' defaults, or the environment's. */
  defaultValues(): SettingValues {
    return this.defaults;
  }

  /** Reads the values in force, then follows the read model; resolves once both are done. */
  async start(): Promise<void> {
    this.stopFollowing = await this.deps.progress.onAdvance(configProjection, () => this.refreshSoon());
    await this.refresh();
    this.timer = setInterval(() => this.refreshSoon(), this.deps.refreshEveryMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopFollowing?.();
  }

  /**
   * Reads the read model now. Calls that overlap share reads: one arriving during a read gets one more
   * read after it, so it always sees what was committed before it was made.
   */
  refresh(): Promise<void> {
    return this.readNow();
  }

  private readonly readNow = coalesced(async () => {
    this.values = await this.read();
  });

  private refreshSoon(): void {
    this.refresh().catch((err: unknown) =>
      this.deps.log.warn(
        { err },
        'settings: the config read model could not be read; keeping the values in force',
      ),
    );
  }

  private async read(): Promise<SettingValues> {
    const values = { ...this.defaults };
    for (const entry of await configEntries(this.deps.db)) {
      const known = settingOfKey(entry.key);
      if (!known) continue;
      const checked = checkSettingValue(known.setting, entry.value);
      if (checked.ok) values[known.name] = checked.value;
      else this.deps.log.warn(`settings: ${checked.problem}; the default is in force`);
    }
    return values;
  }
}
