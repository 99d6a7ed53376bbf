import {
  type ConfigEntry,
  configStream,
  type KnownSettingState,
  knownSettings,
  type SettingValues,
} from '@sniplink/contracts';
import { type ConfigCommand, configDecider } from '@sniplink/domain';
import { commandHandler } from '@sniplink/platform';
import { type ConfigEntryRow, configEntries, configEntry, configProjection } from '@sniplink/projections';
import type { ServiceDeps } from '../shared/service-deps';

/** Config entries take their ids from their keys. */
export interface ConfigServiceDeps extends Omit<ServiceDeps, 'ids'> {
  /** This process's settings, read again after each change so that it applies before the answer. */
  settings: { refresh(): Promise<void>; current(): SettingValues; defaultValues(): SettingValues };
}

/** A config key's commands: its stream, answered once the `admin-config` read model has them. */
const configCommands = { decider: configDecider, stream: configStream, projection: configProjection };

/**
 * Config entries (the console's Config tab): each key is a stream `config-{key}`, whose expected revision
 * makes a second create of a key a 409; the list is the `admin-config` read model. A change answers once
 * the read model and this process's settings have it; other processes read it when they hear that the
 * read model advanced.
 */
export class ConfigService {
  /** A key's stream, one command at a time per key in this process; answered once the read model has it. */
  private readonly entries;

  constructor(private readonly deps: ConfigServiceDeps) {
    this.entries = commandHandler(deps, configCommands);
  }

  async list(): Promise<ConfigEntry[]> {
    return (await configEntries(this.deps.db)).map(toJson);
  }

  /** Every key the app reads, set or not: the value in force and its default. */
  async knownSettings(): Promise<KnownSettingState[]> {
    const stored = new Set((await configEntries(this.deps.db)).map((row) => row.key));
    const current = this.deps.settings.current();
    const defaults = this.deps.settings.defaultValues();
    return Object.entries(knownSettings).map(([name, setting]) => {
      const settingName = name as keyof typeof knownSettings;
      return {
        key: setting.key,
        label: setting.label,
        value: current[settingName],
        default: defaults[settingName],
        defaultFrom: 'defaultFrom' in setting ? setting.defaultFrom : null,
        set: stored.has(setting.key),
      };
    });
  }

  create(key: string, value: string, description: string | null): Promise<ConfigEntry> {
    return this.change({ type: 'CreateConfigEntry', key, value, description });
  }

  update(key: string, value: string, description: string | null): Promise<ConfigEntry> {
    return this.change({ type: 'UpdateConfigEntry', key, value, description });
  }

  async remove(key: string): Promise<void> {
    await this.change({ type: 'DeleteConfigEntry', key });
  }

  /** Runs the command on the key's stream; the entry as it stands after it (empty once deleted). */
  private async change(command: ConfigCommand): Promise<ConfigEntry> {
    const { key } = command;
    const { state } = await this.entries.handle(key, command);
    await this.deps.settings.refresh();
    const row = await configEntry(this.deps.db, key);
    if (row) return toJson(row);
    // Deleted, or the read model is behind (its wait gave up): the entry as its stream has it.
    const updatedAt = this.deps.clock.now().toISOString();
    return { key, value: state.value ?? '', description: state.description, updatedAt };
  }
}

const toJson = (row: ConfigEntryRow): ConfigEntry => ({
  key: row.key,
  value: row.value,
  description: row.description,
  updatedAt: row.updatedAt.toISOString(),
});
