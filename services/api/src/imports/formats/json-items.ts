import { textChunks } from './link-fields';

type Frame = { kind: 'object' | 'array'; key: string | null; expectKey: boolean };

/** What the list scanner hands out: an item's JSON text, or the item already read. */
export type ListItem = { value: unknown } | { error: string };

/**
 * Streams the items of the list at `path` (e.g. ['shortUrls', 'data']) in a JSON document. The scanner only
 * follows strings and brackets to find where each item of that list starts and ends, then reads the item with
 * JSON.parse: a 100,000-item list needs the memory of one item, and reads as fast as JSON.parse. (A general
 * streaming JSON parser such as @streamparser/json tokenises every character in JavaScript and took 5 s for
 * 100,000 links; the shapes read here are known, so finding the one list is all the streaming needed.)
 * An item that is not valid JSON becomes an error, not the end of the file.
 */
export async function* jsonListItems(
  input: AsyncIterable<Uint8Array | string>,
  path: string[],
  format: string,
): AsyncIterable<ListItem> {
  const notThisFormat = (why: string) => new Error(`This is not a ${format} file: ${why}`);
  const stack: Frame[] = [];
  let started = false;
  let inString = false;
  let escaped = false;
  let keyText: string | null = null; // the raw text of an object key being read, else null
  let listDepth = -1; // the stack length inside the list, once found
  let listSeen = false;
  let item: string | null = null; // the text of the current item so far, else null
  let itemFrom = -1; // where the current item starts in the current chunk, else -1
  const ready: ListItem[] = [];

  const finishItem = (text: string) => {
    const source = text.trim();
    try {
      ready.push({ value: JSON.parse(source) });
    } catch {
      ready.push({
        error: `unreadable JSON item: ${source.length > 60 ? `${source.slice(0, 57)}...` : source}`,
      });
    }
  };

  for await (const text of textChunks(input)) {
    itemFrom = item === null ? -1 : 0;
    let keyFrom = keyText === null ? -1 : 0;
    for (let at = 0; at < text.length; at += 1) {
      const char = text.charCodeAt(at);
      if (inString) {
        if (escaped) escaped = false;
        else if (char === 0x5c) escaped = true;
        else if (char === 0x22) {
          inString = false;
          if (keyText !== null) {
            keyText += text.slice(keyFrom, at);
            const frame = stack[stack.length - 1] as Frame;
            try {
              frame.key = JSON.parse(`"${keyText}"`) as string;
            } catch {
              throw notThisFormat('a key is not valid JSON');
            }
            frame.expectKey = false;
            keyText = null;
            keyFrom = -1;
          }
        }
        continue;
      }
      if (char === 0x20 || char === 0x0a || char === 0x0d || char === 0x09) continue;
      if (!started) {
        if (char !== 0x7b) throw notThisFormat('it does not start with a JSON object');
        started = true;
      }
      const inList = listDepth !== -1 && stack.length === listDepth;
      if (inList && (char === 0x2c || char === 0x5d)) {
        // A comma or the closing bracket of the list ends the item being read.
        if (item !== null || itemFrom !== -1) {
          finishItem((item ?? '') + text.slice(Math.max(itemFrom, 0), at));
          item = null;
          itemFrom = -1;
        }
        if (char === 0x5d) {
          stack.pop();
          listDepth = -1;
        }
        continue;
      }
      if (inList && item === null && itemFrom === -1) itemFrom = at;
      const top = stack[stack.length - 1];
      switch (char) {
        case 0x22:
          inString = true;
          if (top?.kind === 'object' && top.expectKey && stack.length <= path.length) {
            keyText = '';
            keyFrom = at + 1;
          }
          break;
        case 0x7b:
          stack.push({ kind: 'object', key: null, expectKey: true });
          break;
        case 0x5b:
          if (
            !listSeen &&
            stack.length === path.length &&
            stack.every((frame, index) => frame.kind === 'object' && frame.key === path[index])
          ) {
            listSeen = true;
            listDepth = stack.length + 1;
          }
          stack.push({ kind: 'array', key: null, expectKey: false });
          break;
        case 0x7d:
        case 0x5d:
          if (stack.pop() === undefined) throw notThisFormat('it has a closing bracket too many');
          break;
        case 0x2c:
          if (top?.kind === 'object') top.expectKey = true;
          break;
      }
    }
    if (keyText !== null) keyText += text.slice(keyFrom);
    if (itemFrom !== -1) item = (item ?? '') + text.slice(itemFrom);
    yield* ready;
    ready.length = 0;
  }
  if (!started) throw notThisFormat('it is empty');
  if (item !== null) yield { error: 'the file ends inside this item: it looks cut short' };
  if (!listSeen) throw notThisFormat(`it has no "${path.join('.')}" list`);
}

/** The object's fields, or null for an item that is not an object. */
export function fieldsOf(item: unknown): Record<string, unknown> | null {
  return item !== null && typeof item === 'object' && !Array.isArray(item)
    ? (item as Record<string, unknown>)
    : null;
}
