import { type ClickStream, partitionFor } from '@sniplink/platform';
import {
  clickStreamMissing,
  createTestClickStream,
  type TestClickStream,
} from '@sniplink/test-support/click-stream';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClickAnalytics } from './consumer';
import { linkClicks } from './queries';
import { asMessages, click, drained, newLinkId } from './testing';

describe.skipIf(clickStreamMissing('queries.test.ts'))(
  'whether a link was ever clicked (for a code it gives up)',
  () => {
    let stack: TestStack;
    let subject: TestClickStream;
    let stream: ClickStream;
    let analytics: ClickAnalytics | undefined;

    beforeEach(async () => {
      stack = await createTestStack();
      subject = createTestClickStream(
        { pool: stack.database.pool, notifications: stack.notifications },
        { partitionCount: 4 },
      );
      stream = subject.stream;
    });
    afterEach(async () => {
      await analytics?.stop();
      analytics = undefined;
      await subject.close();
      await stack.cleanup();
    });

    /** A link id whose clicks go to the partition of `other` (same: true) or to another one. */
    const linkBeside = (other: string, same: boolean) => {
      for (;;) {
        const id = newLinkId();
        const shares = partitionFor(id, stream.partitionCount) === partitionFor(other, stream.partitionCount);
        if (shares === same) return id;
      }
    };

    it('says "unconfirmed" while its partition holds uncounted clicks, then "counted" or "none"', async () => {
      const clicked = newLinkId();
      const neighbour = linkBeside(clicked, true);
      const elsewhere = linkBeside(clicked, false);
      const botOnly = newLinkId();
      expect(await linkClicks(stack.database.db, stream, clicked)).toBe('none');
      await stream.publish(
        asMessages([
          click(clicked, '2026-11-20T10:00:00Z'),
          click(botOnly, '2026-11-20T10:00:00Z', { bot: true }),
        ]),
      );
      // Published, not counted yet (no consumer runs): the link and every link of its partition are unsure.
      expect(await linkClicks(stack.database.db, stream, clicked)).toBe('unconfirmed');
      expect(await linkClicks(stack.database.db, stream, neighbour)).toBe('unconfirmed');
      expect(await linkClicks(stack.database.db, stream, elsewhere.toUpperCase())).toBe(
        partitionFor(elsewhere, stream.partitionCount) === partitionFor(botOnly, stream.partitionCount)
          ? 'unconfirmed'
          : 'none',
      );
      analytics = new ClickAnalytics(
        { db: stack.database.db, stream, log: stack.log },
        { flushWhenQuietMs: 20, groupId: subject.kafka?.groupId },
      );
      analytics.start();
      await drained(analytics, stream);
      expect(await linkClicks(stack.database.db, stream, clicked)).toBe('counted');
      expect(await linkClicks(stack.database.db, stream, botOnly)).toBe('counted');
      expect(await linkClicks(stack.database.db, stream, neighbour)).toBe('none');
      expect(await linkClicks(stack.database.db, stream, elsewhere)).toBe('none');
    });
  },
);
