import type { PageCopyEvent } from '@sniplink/contracts/content/events';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { pageCopyDecider } from './page-copy';

const given = specFor(pageCopyDecider);
const draft = (title: string, content: string): PageCopyEvent => ({
  type: 'PageCopyDraftSaved',
  data: { page: 'privacy', title, content },
});
const published = (version: number, title: string, content: string): PageCopyEvent => ({
  type: 'PageCopyPublished',
  data: { page: 'privacy', version, title, content },
});
const publish = { type: 'PublishPageCopy', page: 'privacy' } as const;

describe('page copy decider', () => {
  it('saves a draft, and records nothing when the same text is saved again', () => {
    given([])
      .when({ type: 'SavePageCopyDraft', page: 'privacy', title: 'Privacy', content: 'We keep little.' })
      .then([draft('Privacy', 'We keep little.')]);
    given([draft('Privacy', 'We keep little.')])
      .when({ type: 'SavePageCopyDraft', page: 'privacy', title: 'Privacy', content: 'We keep little.' })
      .then([]);
  });

  it('publishes the draft as the next version, once', () => {
    given([draft('Privacy', 'v1')])
      .when(publish)
      .then([published(1, 'Privacy', 'v1')]);
    given([draft('Privacy', 'v1'), published(1, 'Privacy', 'v1'), draft('Privacy', 'v2')])
      .when(publish)
      .then([published(2, 'Privacy', 'v2')]);
    given([draft('Privacy', 'v1'), published(1, 'Privacy', 'v1')])
      .when(publish)
      .thenThrows({ code: 'CONFLICT', status: 409 });
  });

  it('refuses to publish without a title or without content', () => {
    given([]).when(publish).thenThrows({ status: 400, field: 'title' });
    given([draft('  ', 'Copy')])
      .when(publish)
      .thenThrows({ status: 400, field: 'title' });
    given([draft('Privacy', '\n\u200b ')])
      .when(publish)
      .thenThrows({ status: 400, field: 'content' });
  });
});
