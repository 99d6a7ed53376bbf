/**
 * A read that calls overlapping it share: one arriving during a read gets one more read after it, so it
 * always sees what was committed before it was made, and a burst of calls costs at most two reads. The
 * in-memory copies of read models (settings, the moderation lists, the SEO entries) refresh through it.
 */
export function coalesced(read: () => Promise<void>): () => Promise<void> {
  let reading: Promise<void> | undefined;
  let readAgain = false;
  return () => {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          readAgain = false;
          await read();
        } while (readAgain);
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
}
