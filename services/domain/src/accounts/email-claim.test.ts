import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, expect, it } from 'vitest';
import { emailClaimDecider, normaliseEmail } from './email-claim';

const given = specFor(emailClaimDecider);
const ada = '01890000-0000-7000-8000-00000000000a';
const bob = '01890000-0000-7000-8000-00000000000b';

describe('e-mail claim decider', () => {
  it('gives a free address to the first account that claims it', () => {
    given([])
      .when({ type: 'ClaimEmail', userId: ada })
      .then([{ type: 'EmailClaimed', data: { userId: ada } }]);
  });

  it('lets the holder retry its claim, and refuses everyone else', () => {
    const claimed = [{ type: 'EmailClaimed' as const, data: { userId: ada } }];
    given(claimed).when({ type: 'ClaimEmail', userId: ada }).then([]);
    given(claimed)
      .when({ type: 'ClaimEmail', userId: bob })
      .thenThrows({ code: 'EMAIL_TAKEN', status: 409, field: 'email' });
  });

  it('frees the address when its holder releases it (erasure), so it can register again', () => {
    const released = [
      { type: 'EmailClaimed' as const, data: { userId: ada } },
      { type: 'EmailReleased' as const, data: { userId: ada } },
    ];
    given(released)
      .when({ type: 'ClaimEmail', userId: bob })
      .then([{ type: 'EmailClaimed', data: { userId: bob } }]);
    given(released).when({ type: 'ReleaseEmail', userId: ada }).then([]);
  });

  it('compares addresses ignoring case and surrounding spaces', () => {
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});
