import { z } from 'zod';

/**
 * The event registry: every event type is declared once, with the version of its shape, its zod schema
 * and an upcaster from each older version. The event store is given the registry: it refuses an event
 * whose data does not fit its schema before appending anything, and hands every event it reads back in
 * its current shape. Stored events are never edited: a new shape is a new version plus an upcaster.
 */

/** Turns the data of version N-1 (checked against that version's schema first) into version N's. */
export interface Upcaster {
  /** The schema of the older version, which the stored data is parsed with before `up`. */
  readonly from: z.ZodType;
  readonly up: (data: unknown) => unknown;
}

/** An upcaster from the version `from` describes: a pure function, no clock, no I/O. */
export function upcaster<From extends z.ZodType>(
  from: From,
  up: (data: z.output<From>) => unknown,
): Upcaster {
  return { from, up: (data) => up(data as z.output<From>) };
}

export interface EventDefinition<Type extends string = string, Data = unknown> {
  readonly type: Type;
  /** The version new events are stored at; stored events of older versions are upcast to it. */
  readonly version: number;
  readonly schema: z.ZodType<Data>;
  /** `upcasters[i]` turns version i+1 into version i+2: one per older version, oldest first. */
  readonly upcasters: readonly Upcaster[];
}

/** Declares an event type: its current version, the schema of that version and the way up from each older one. */
export function defineEvent<const Type extends string, Schema extends z.ZodType>(definition: {
  type: Type;
  version: number;
  schema: Schema;
  upcasters?: readonly Upcaster[];
}): EventDefinition<Type, z.output<Schema>> {
  const upcasters = definition.upcasters ?? [];
  if (!Number.isInteger(definition.version) || definition.version !== upcasters.length + 1) {
    throw new Error(
      `Event ${definition.type} is at version ${definition.version} but has ${upcasters.length} upcaster(s): it needs one from each older version`,
    );
  }
  return { ...definition, schema: definition.schema as z.ZodType<z.output<Schema>>, upcasters };
}

/** `{ type, data }` of a definition: what deciders decide and fold, and projections read. */
export type EventOf<Definition> =
  Definition extends EventDefinition<infer Type, infer Data> ? { type: Type; data: Data } : never;

/** A feature's events (a stream's, or a read model's): their definitions, names, and a check by name. */
export class EventGroup<Event extends { type: string; data: unknown }> {
  readonly types: readonly Event['type'][];
  private readonly names: ReadonlySet<string>;

  constructor(readonly definitions: readonly EventDefinition[]) {
    this.types = definitions.map((definition) => definition.type as Event['type']);
    this.names = new Set(this.types);
  }

  /**
   * Whether an event read from the store is one of these. The store parsed its data with the schema of
   * its type, so the name is all there is left to check.
   */
  includes<Read extends { type: string; data: unknown }>(event: Read): event is Read & Event {
    return this.names.has(event.type);
  }

  /** The event as one of these; an error names it when it is not (a reader handed what it does not read). */
  narrow<Read extends { type: string; data: unknown }>(event: Read): Read & Event {
    if (!this.includes(event))
      throw new Error(`A ${event.type} event is not one of ${this.types.join(', ')}`);
    return event;
  }

  /** This group and another: e.g. everything on a user's stream. */
  with<Other extends { type: string; data: unknown }>(other: EventGroup<Other>): EventGroup<Event | Other> {
    return new EventGroup<Event | Other>([...this.definitions, ...other.definitions]);
  }
}

/** The `{ type, data }` union of a group. */
export type EventsIn<Group> = Group extends EventGroup<infer Event> ? Event : never;

export function eventGroup<const Definitions extends readonly EventDefinition[]>(
  ...definitions: Definitions
): EventGroup<EventOf<Definitions[number]>> {
  return new EventGroup(definitions);
}

/**
 * An event that does not fit its schema, or of a type no one declared. A programming error (what a
 * decider produced), never the user's: nothing of the append is stored.
 */
export class InvalidEventError extends Error {
  constructor(
    readonly eventType: string,
    readonly field: string | undefined,
    problem: string,
  ) {
    super(`Event ${eventType} is invalid${field ? ` at ${field}` : ''}: ${problem}`);
    this.name = 'InvalidEventError';
  }
}

/** A stored event this code cannot read: an unknown type, a version newer than it knows, data off its schema. */
export class UnreadableEventError extends Error {
  constructor(eventType: string, schemaVersion: number, problem: string) {
    super(`Stored event ${eventType} (version ${schemaVersion}) cannot be read: ${problem}`);
    this.name = 'UnreadableEventError';
  }
}

/** Every event type the store may hold, and how to store and read each. */
export class EventRegistry {
  private readonly byType = new Map<string, EventDefinition>();

  constructor(groups: readonly EventGroup<{ type: string; data: unknown }>[]) {
    for (const definition of groups.flatMap((group) => group.definitions)) {
      if (this.byType.has(definition.type)) throw new Error(`Event ${definition.type} is declared twice`);
      this.byType.set(definition.type, definition);
    }
  }

  /** The data as it is stored (parsed: unknown keys dropped) and the version it is stored at. */
  toStored(type: string, data: unknown): { data: unknown; schemaVersion: number } {
    const definition = this.byType.get(type);
    if (!definition) throw new InvalidEventError(type, undefined, 'no such event type is declared');
    const parsed = definition.schema.safeParse(data);
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new InvalidEventError(type, fieldOf(issue), issue?.message ?? 'does not fit its schema');
    }
    return { data: parsed.data, schemaVersion: definition.version };
  }

  /** Stored data of `schemaVersion`, parsed with that version's schema and upcast to the current shape. */
  fromStored(type: string, schemaVersion: number, data: unknown): unknown {
    const definition = this.byType.get(type);
    if (!definition) throw new UnreadableEventError(type, schemaVersion, 'no such event type is declared');
    if (!Number.isInteger(schemaVersion) || schemaVersion < 1 || schemaVersion > definition.version) {
      throw new UnreadableEventError(
        type,
        schemaVersion,
        `this code knows versions 1 to ${definition.version}`,
      );
    }
    let current = data;
    for (const step of definition.upcasters.slice(schemaVersion - 1)) {
      current = step.up(parseStored(step.from, current, type, schemaVersion));
    }
    return parseStored(definition.schema, current, type, schemaVersion);
  }
}

function parseStored(schema: z.ZodType, data: unknown, type: string, schemaVersion: number): unknown {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new UnreadableEventError(type, schemaVersion, z.prettifyError(parsed.error));
}

function fieldOf(issue: z.core.$ZodIssue | undefined): string | undefined {
  return issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
}
