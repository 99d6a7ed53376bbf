import { type DisclosureEvent, disclosureEvents } from '@sniplink/contracts/event-console/events';
import { type Decider, deciderOf, exhaustive } from '../decider';

/** How often the personal data of a stream's events was revealed, and which events' were. */
export interface DisclosureState {
  reveals: number;
}

export type DisclosureCommand = {
  type: 'RevealPersonalData';
  streamId: string;
  eventId: string;
  revision: number;
  eventType: string;
  fields: string[];
};

function evolve(state: DisclosureState, event: DisclosureEvent): DisclosureState {
  switch (event.type) {
    case 'PersonalDataRevealed':
      return { reveals: state.reveals + 1 };
    default:
      return exhaustive(event.type);
  }
}

/** Every reveal is recorded, even of the same event again: the audit history lists each reading. */
function decide(command: DisclosureCommand, _state: DisclosureState): DisclosureEvent[] {
  switch (command.type) {
    case 'RevealPersonalData': {
      const { streamId, eventId, revision, eventType, fields } = command;
      return [{ type: 'PersonalDataRevealed', data: { streamId, eventId, revision, eventType, fields } }];
    }
    default:
      return exhaustive(command.type);
  }
}

export const disclosureDecider: Decider<DisclosureCommand, DisclosureState, DisclosureEvent> = deciderOf(
  disclosureEvents,
  { initialState: () => ({ reveals: 0 }), evolve, decide },
);
