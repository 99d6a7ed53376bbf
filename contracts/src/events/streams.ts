/**
 * A kind of stream: every stream of it is named `<category>-<key>` (`ticket-42`). Stored streams keep
 * these names for good, so a stream's name is built and read back here only, beside its events.
 */
export interface Stream<Category extends string = string> {
  readonly category: Category;
  /** The stream of `key` (an aggregate's id, a code, a hash). */
  id(key: string): string;
  /** The key back from a stream of this kind; an error names it when it is another kind's. */
  idOf(stream: string | { streamId: string }): string;
  /** Whether a stream is one of this kind. */
  holds(stream: string | { streamId: string }): boolean;
}

/**
 * Declares a kind of stream. `normalise` turns a key into the one its stream is named after (a short
 * code is the same code whatever its case, so its stream is named in lower case).
 */
export function stream<const Category extends string>(
  category: Category,
  normalise: (key: string) => string = (key) => key,
): Stream<Category> {
  const prefix = `${category}-`;
  const nameOf = (stream: string | { streamId: string }) =>
    typeof stream === 'string' ? stream : stream.streamId;
  const holds = (stream: string | { streamId: string }) => nameOf(stream).startsWith(prefix);
  return {
    category,
    id: (key) => `${prefix}${normalise(key)}`,
    idOf(stream) {
      const name = nameOf(stream);
      if (!holds(name)) throw new Error(`Stream ${name} is not a ${category} stream`);
      return name.slice(prefix.length);
    },
    holds,
  };
}
