import { type ProjectionOperationEvent, projectionEvents } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';

/** How many rebuilds of the read model were asked for (the stream is its history, for the audit). */
export interface ProjectionOperationsState {
  rebuildsRequested: number;
}

/** The projection's name and version are the service's to check: it knows the read models this app runs. */
export type ProjectionOperationCommand = { type: 'RequestRebuild'; projection: string; version: number };

const initialState = (): ProjectionOperationsState => ({ rebuildsRequested: 0 });

function evolve(
  state: ProjectionOperationsState,
  event: ProjectionOperationEvent,
): ProjectionOperationsState {
  switch (event.type) {
    case 'ProjectionRebuildRequested':
      return { rebuildsRequested: state.rebuildsRequested + 1 };
    default:
      return exhaustive(event.type);
  }
}

function decide(command: ProjectionOperationCommand): ProjectionOperationEvent[] {
  switch (command.type) {
    case 'RequestRebuild':
      return [
        {
          type: 'ProjectionRebuildRequested',
          data: { projection: command.projection, version: command.version },
        },
      ];
    default:
      return exhaustive(command.type);
  }
}

export const projectionOperationsDecider = deciderOf(projectionEvents, { initialState, evolve, decide });
