import { v7 as uuidv7 } from 'uuid';

/** Where services get the ids of what they create (accounts, links): UUIDs, v7 so they sort by creation. */
export interface IdSource {
  newId(): string;
}

export const uuidV7Ids: IdSource = { newId: () => uuidv7() };

/**
 * Ids a test can name in advance: 01890000-0000-7000-8000-000000000001, …-000000000002, … (UUID-shaped,
 * so they pass every check a real id passes). `block` (0-65535) keeps two sources in one database apart.
 */
export function sequentialIds(block = 0): IdSource {
  if (!Number.isInteger(block) || block < 0 || block > 0xffff)
    throw new Error('sequentialIds: block is 0-65535');
  const prefix = `01890000-${block.toString(16).padStart(4, '0')}-7000-8000-`;
  let next = 0;
  return { newId: () => `${prefix}${(++next).toString(16).padStart(12, '0')}` };
}
