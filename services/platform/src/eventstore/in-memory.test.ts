import { eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory';

eventStoreContract('in-memory', async () => {
  const store = new InMemoryEventStore();
  return { store, cleanup: () => store.close() };
});
