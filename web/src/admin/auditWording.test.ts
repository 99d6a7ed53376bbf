import { describe, expect, it } from 'vitest';
import { actionWording, actorWording, detailsWording, targetWording } from './auditWording';

describe('how the audit history words an entry', () => {
  it('says known actions in words and shows an unknown one by its name', () => {
    expect(actionWording('UserSuspended')).toBe('Suspended');
    expect(actionWording('UserUnsuspended')).toBe('Unsuspended');
    expect(actionWording('AdminGranted')).toBe('Made admin');
    expect(actionWording('AnnouncementSwitchedOff')).toBe('Announcement switched off');
    expect(actionWording('SlugApproved')).toBe('SlugApproved');
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
    expect(detailsWording({ reason: 'spam', note: null, limit: 5, tags: ['a'] })).toBe(
      'reason: spam, limit: 5, tags: ["a"]',
    );
    expect(detailsWording({ reason: null })).toBe('');
    expect(targetWording({ type: 'user', id: 'u1', streamId: 'user-u1' })).toBe('user u1');
  });
});
