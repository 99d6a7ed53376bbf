import { describe, expect, it } from 'vitest';
import { actionWording, actorWording, detailsWording, targetWording } from './auditWording';

describe('how the audit history words an entry', () => {
  it('says known actions in words and shows an unknown one by its name', () => {
    expect(actionWording('UserSuspended')).toBe('Suspended');
    expect(actionWording('UserUnsuspended')).toBe('Unsuspended');
    expect(actionWording('AdminGranted')).toBe('Made admin');
    expect(actionWording('AnnouncementSwitchedOff')).toBe('Announcement switched off');
    expect(actionWording('AdminDocEdited')).toBe('Doc edited');
    expect(actionWording('PersonalDataRevealed')).toBe('Personal data revealed');
    expect(actionWording('SlugApproved')).toBe('SlugApproved');
  });

  it('words the Moderate tab’s changes: the lists and the approvals', () => {
    expect(actionWording('ProhibitedWordAdded')).toBe('Prohibited word added');
    expect(actionWording('ProtectedBrandSwitchedOff')).toBe('Protected brand switched off');
    expect(actionWording('LinkCodeRejected')).toBe('Short code rejected');
    expect(
      detailsWording({
        brandId: '01a21f4c-3b1e-7c4d-8e2f-0123456789ab',
        brand: 'Acme',
        requiresApproval: true,
      }),
    ).toBe('brand: Acme, requires approval: yes');
  });

  it('names the admin by address, an erased admin as erased, and the operator and the system', () => {
    const admin = { id: 'a1', email: 'admin@example.com', kind: 'admin', erased: false } as const;
    expect(actorWording(admin)).toBe('admin@example.com');
    expect(actorWording({ ...admin, email: null, erased: true })).toBe('Erased admin');
    expect(actorWording({ ...admin, email: null })).toBe('a1');
    expect(actorWording({ id: 'operator', email: null, kind: 'operator', erased: false })).toBe(
      'Operator (command line)',
    );
    expect(actorWording({ id: 'system', email: null, kind: 'system', erased: false })).toBe('System');
  });

  it('lists the details that say something, and the target by type and id', () => {
    expect(detailsWording({ reason: 'spam', note: null, limit: 5, tags: ['a', 'b'] })).toBe(
      'reason: spam, limit: 5, tags: a, b',
    );
    expect(detailsWording({ reason: null })).toBe('');
  });

  it('never shows ids, revisions or who acted: the Who column names the admin', () => {
    expect(detailsWording({ by: '01a21f4c-3b1e-7c4d-8e2f-0123456789ab', rosterRevision: 2 })).toBe('');
    expect(
      detailsWording({
        slugId: '01a21f4c-3b1e-7c4d-8e2f-0123456789ab',
        fields: { price: 4900, isAvailable: false, stripePriceId: null },
      }),
    ).toBe('fields: price: $49.00, for sale: no');
    expect(detailsWording({ plan: 'monthly', provider: 'operator', reference: 'ref_1' })).toBe(
      'plan: monthly, through: operator',
    );
    expect(detailsWording({ key: 'links.free_limit', value: 10, targetAudience: 'paid' })).toBe(
      'key: links.free_limit, value: 10, audience: paid',
    );
    expect(targetWording({ type: 'user', id: 'u1', streamId: 'user-u1' })).toBe('user u1');
  });

  it('words a page’s SEO settings saved, with what was set', () => {
    expect(actionWording('SeoSettingsUpdated')).toBe('SEO settings updated');
    expect(
      detailsWording({
        page: 'about',
        title: 'About us',
        description: null,
        ogImage: 'https://cdn.example.com/a.png',
        isPublic: false,
      }),
    ).toBe('page: about, title: About us, OG image: https://cdn.example.com/a.png, public: no');
    expect(targetWording({ type: 'seo', id: 'about', streamId: 'seo-about' })).toBe('seo about');
  });
});
