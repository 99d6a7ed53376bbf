import type { AdminDocEvent } from '@sniplink/contracts/admin-docs/events';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { adminDocDecider } from './admin-doc';

const given = specFor(adminDocDecider);
const docId = '01890000-0000-7000-8000-0000000000d1';
const doc = { section: 'users' as const, title: 'Suspending', content: '# Suspend', sortOrder: 10 };
const created: AdminDocEvent = { type: 'AdminDocCreated', data: { docId, ...doc, seeded: false } };
const deleted: AdminDocEvent = { type: 'AdminDocDeleted', data: { docId, title: 'Suspending' } };

describe('admin doc decider', () => {
  it('creates a doc once', () => {
    given([]).when({ type: 'CreateAdminDoc', docId, doc }).then([created]);
    given([created])
      .when({ type: 'CreateAdminDoc', docId, doc })
      .thenThrows({ code: 'CONFLICT', status: 409 });
  });

  it('seeds a starter doc only onto a stream never written: not again, and not back after a deletion', () => {
    given([])
      .when({ type: 'SeedAdminDoc', docId, doc })
      .then([{ type: 'AdminDocCreated', data: { docId, ...doc, seeded: true } }]);
    given([created]).when({ type: 'SeedAdminDoc', docId, doc }).then([]);
    given([created, deleted]).when({ type: 'SeedAdminDoc', docId, doc }).then([]);
  });

  it('edits a live doc with the whole doc; the same doc again changes nothing', () => {
    const edited = { ...doc, section: 'moderation' as const, sortOrder: 0 };
    given([created])
      .when({ type: 'EditAdminDoc', docId, doc: edited })
      .then([{ type: 'AdminDocEdited', data: { docId, ...edited } }]);
    given([created]).when({ type: 'EditAdminDoc', docId, doc }).then([]);
  });

  it('edits and deletes only a live doc (404 otherwise); a deletion names the title it had', () => {
    given([created]).when({ type: 'DeleteAdminDoc', docId }).then([deleted]);
    for (const history of [[], [created, deleted]]) {
      given(history).when({ type: 'DeleteAdminDoc', docId }).thenThrows({ code: 'NOT_FOUND', status: 404 });
      given(history).when({ type: 'EditAdminDoc', docId, doc }).thenThrows({ status: 404 });
    }
  });
});
