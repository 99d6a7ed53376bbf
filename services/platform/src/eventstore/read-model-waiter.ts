import type { LogPosition } from './port';

/** A read model as its readers name it: the projection's name, the key of its checkpoint. */
export interface ReadModel {
  readonly name: string;
}

/**
 * Waits until a read model has passed a position (read-your-writes); false on timeout, the write being
 * stored anyway. The projections' progress is one; a test may give its own.
 */
export interface ReadModelWaiter {
  waitFor(readModel: ReadModel, position: LogPosition, timeoutMs?: number): Promise<boolean>;
}
