import { describe, expect, it } from 'vitest';
import { adminSearchSchema } from './places';

describe("the console's places in the address", () => {
  it('reads the Support tab’s filters, page and open ticket', () => {
    expect(
      adminSearchSchema.parse({
        tab: 'support',
        status: 'in_progress',
        priority: 'urgent',
        page: 2,
        ticket: 't-1',
      }),
    ).toEqual({ tab: 'support', status: 'in_progress', priority: 'urgent', page: 2, ticket: 't-1' });
  });

  it('reads a filter that is not one as no filter, never as an error page', () => {
    expect(
      adminSearchSchema.parse({
        tab: 'premium',
        status: 'lost',
        category: 'nope',
        tier: 3,
        availability: '',
      }),
    ).toEqual({ tab: 'premium' });
  });

  it('reads the Premium tab’s search and filters', () => {
    expect(
      adminSearchSchema.parse({ tab: 'premium', q: 'alpha', tier: 'ultra', availability: 'owned' }),
    ).toEqual({ tab: 'premium', q: 'alpha', tier: 'ultra', availability: 'owned' });
  });

  it('reads the Docs tab’s section, and a section that is not one as none', () => {
    expect(adminSearchSchema.parse({ tab: 'docs', section: 'moderation' })).toEqual({
      tab: 'docs',
      section: 'moderation',
    });
    expect(adminSearchSchema.parse({ tab: 'docs', section: 'billing' })).toEqual({ tab: 'docs' });
  });
});
