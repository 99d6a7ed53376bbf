import { describe, expect, it } from 'vitest';
import { contractRegistry, eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory';

eventStoreContract('in-memory', async (registry) => {
  const store = new InMemoryEventStore(registry);
  return { store, cleanup: () => store.close() };
});

describe('in-memory event store', () => {
  it('ends its live subscriptions when it is closed, as a test tearing it down expects', async () => {
    const store = new InMemoryEventStore(contractRegistry);
    const subscriptions = [store.subscribeToAll(), store.subscribeToAll()];
    const waiting = subscriptions.map((subscription) => subscription[Symbol.asyncIterator]().next());
    await store.close();
    expect(await Promise.all(waiting)).toEqual([
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
  });
});
