import type { AdminRosterEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, expect, it } from 'vitest';
import { adminRosterDecider } from './admin-roster';

const given = specFor(adminRosterDecider);
const ada = '01890000-0000-7000-8000-00000000000a';
const bob = '01890000-0000-7000-8000-00000000000b';
const eve = '01890000-0000-7000-8000-00000000000e';
const joined = (userId: string, by = 'system'): AdminRosterEvent => ({
  type: 'AdminRosterJoined',
  data: { userId, by },
});
const left = (userId: string, by: string): AdminRosterEvent => ({
  type: 'AdminRosterLeft',
  data: { userId, by },
});

describe('admin roster', () => {
  it('adds an admin once: adding one again appends nothing', () => {
    given([])
      .when({ type: 'AddAdmin', userId: ada, by: 'system' })
      .then([joined(ada)]);
    given([joined(ada)])
      .when({ type: 'AddAdmin', userId: bob, by: ada })
      .then([joined(bob, ada)]);
    given([joined(ada)])
      .when({ type: 'AddAdmin', userId: ada, by: 'operator' })
      .then([]);
  });

  it('lets an admin remove their own flag while another admin remains', () => {
    given([joined(ada), joined(bob, ada)])
      .when({ type: 'RemoveAdmin', userId: ada, by: ada })
      .then([left(ada, ada)]);
  });

  it('refuses the last admin removing their own flag, with a clear 409', () => {
    given([joined(ada)])
      .when({ type: 'RemoveAdmin', userId: ada, by: ada })
      .thenThrows({
        status: 409,
        code: 'CONFLICT',
        message: expect.stringContaining('You are the last admin'),
      });
    given([joined(ada), joined(bob, ada), left(bob, bob)])
      .when({ type: 'RemoveAdmin', userId: ada, by: ada })
      .thenThrows({ status: 409 });
  });

  it('never leaves zero admins, whoever asks (the operator too)', () => {
    given([joined(ada)])
      .when({ type: 'RemoveAdmin', userId: ada, by: 'operator' })
      .thenThrows({ status: 409, message: expect.stringContaining('This is the last admin') });
  });

  it('refuses an acting admin who is no longer on the roster (two admins revoking each other)', () => {
    // Ada removed Bob a moment ago; Bob's request, which passed the gate before, cannot remove Ada.
    given([joined(ada), joined(bob, ada), left(bob, ada)])
      .when({ type: 'RemoveAdmin', userId: ada, by: bob })
      .thenThrows({ status: 403, code: 'ADMIN_REQUIRED' });
    given([joined(ada)])
      .when({ type: 'AddAdmin', userId: eve, by: bob })
      .thenThrows({ status: 403, code: 'ADMIN_REQUIRED' });
  });

  it('removing a non-admin appends nothing', () => {
    given([joined(ada)])
      .when({ type: 'RemoveAdmin', userId: bob, by: ada })
      .then([]);
  });

  it('lets an erasure take the last admin off the roster (the account is gone)', () => {
    given([joined(ada)])
      .when({ type: 'RemoveAdmin', userId: ada, by: 'system', erasure: true })
      .then([left(ada, 'system')]);
  });

  it('counts its revision and remembers former admins', () => {
    const state = [joined(ada), joined(bob, ada), left(bob, ada)].reduce(
      adminRosterDecider.evolve,
      adminRosterDecider.initialState(),
    );
    expect(state).toEqual({ members: [ada], former: [bob], revision: 2 });
  });
});
