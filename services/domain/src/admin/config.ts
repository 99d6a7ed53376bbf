import {
  type ConfigEvent,
  checkSettingValue,
  configEvents,
  isConfigKey,
  settingOfKey,
} from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';

/** A config entry as its stream `config-{key}` leaves it: absent (never set, or deleted) or its value. */
export interface ConfigEntryState {
  value: string | null;
  description: string | null;
}

/** Key and value are checked by the request's schema; a known key's value is checked here. */
export type ConfigCommand =
  | { type: 'CreateConfigEntry'; key: string; value: string; description: string | null }
  | { type: 'UpdateConfigEntry'; key: string; value: string; description: string | null }
  | { type: 'DeleteConfigEntry'; key: string };

const initialState = (): ConfigEntryState => ({ value: null, description: null });

/** Each event says the whole entry: the state before it does not matter. */
function evolve(_state: ConfigEntryState, event: ConfigEvent): ConfigEntryState {
  switch (event.type) {
    case 'ConfigEntryCreated':
    case 'ConfigEntryUpdated':
      return { value: event.data.value, description: event.data.description };
    case 'ConfigEntryDeleted':
      return initialState();
    default:
      return exhaustive(event);
  }
}

function decide(command: ConfigCommand, state: ConfigEntryState): ConfigEvent[] {
  const { key } = command;
  switch (command.type) {
    case 'CreateConfigEntry': {
      // The request's schema says why a key is refused; this keeps any other caller to the same keys.
      if (!isConfigKey(key)) throw new ValidationError('key is not a key an entry may have', 'key');
      if (state.value !== null) throw new ConflictError('CONFLICT', 'A config entry with this key exists');
      const value = storedValue(key, command.value);
      return [{ type: 'ConfigEntryCreated', data: { key, value, description: command.description } }];
    }
    case 'UpdateConfigEntry': {
      if (state.value === null) throw noSuchEntry();
      const value = storedValue(key, command.value);
      if (value === state.value && command.description === state.description) return [];
      return [
        {
          type: 'ConfigEntryUpdated',
          data: { key, value, description: command.description, previousValue: state.value },
        },
      ];
    }
    case 'DeleteConfigEntry':
      if (state.value === null) throw noSuchEntry();
      return [{ type: 'ConfigEntryDeleted', data: { key, previousValue: state.value } }];
    default:
      return exhaustive(command);
  }
}

/** A known key's value in its canonical form, or a 400 saying what it takes; any other key's as given. */
function storedValue(key: string, value: string): string {
  const known = settingOfKey(key);
  if (!known) return value;
  const checked = checkSettingValue(known.setting, value);
  if (!checked.ok) throw new ValidationError(checked.problem, 'value');
  return checked.text;
}

const noSuchEntry = () => new NotFoundError('No such config entry');

export const configDecider = deciderOf(configEvents, { initialState, evolve, decide });
