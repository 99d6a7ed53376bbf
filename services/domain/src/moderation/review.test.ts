import type { LinkEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { linkDecider } from '../links/link';
import { prohibitedWordDecider, protectedBrandDecider } from './lists';

const ada = '01890000-0000-7000-8000-00000000000a';
const link = '01890000-0000-7000-8000-000000000001';
const approval = '01890000-0000-7000-8000-0000000000a1';
const other = '01890000-0000-7000-8000-0000000000a2';
const word = '01890000-0000-7000-8000-0000000000e1';
const brand = '01890000-0000-7000-8000-0000000000e2';
const review = { approvalId: approval, brand: 'Acme', ownerId: ada };

const created: LinkEvent = {
  type: 'LinkCreated',
  data: {
    linkId: link,
    ownerId: ada,
    code: 'acme-shop',
    originalUrl: 'https://example.com',
    title: null,
    origin: 'dashboard',
    review,
  },
};

describe('a code waiting for approval, on its link', () => {
  const given = specFor(linkDecider);

  it('approves only the approval the code waits for', () => {
    given([created])
      .when({ type: 'ApproveCode', approvalId: approval, notes: null })
      .then([{ type: 'LinkCodeApproved', data: { approvalId: approval, code: 'acme-shop', notes: null } }]);
    given([created])
      .when({ type: 'ApproveCode', approvalId: other, notes: null })
      .thenThrows({ code: 'CONFLICT', status: 409 });
  });

  it('rejects by moving the link to the generated code, in one append', () => {
    given([created])
      .when({
        type: 'RejectCode',
        approvalId: approval,
        reason: 'Brand protection violation',
        newCode: 'x7k2p9q',
      })
      .then([
        {
          type: 'LinkCodeRejected',
          data: { approvalId: approval, code: 'acme-shop', reason: 'Brand protection violation' },
        },
        { type: 'LinkCodeChanged', data: { code: 'x7k2p9q', previousCode: 'acme-shop' } },
      ]);
  });

  it('decides nothing twice, nor on a code the owner moved off', () => {
    const approved: LinkEvent = {
      type: 'LinkCodeApproved',
      data: { approvalId: approval, code: 'acme-shop', notes: null },
    };
    given([created, approved])
      .when({ type: 'RejectCode', approvalId: approval, reason: 'r', newCode: 'x7k2p9q' })
      .thenThrows({ code: 'CONFLICT' });
    const moved: LinkEvent = { type: 'LinkCodeChanged', data: { code: 'plain', previousCode: 'acme-shop' } };
    given([created, moved])
      .when({ type: 'ApproveCode', approvalId: approval, notes: null })
      .thenThrows({ code: 'CONFLICT' });
  });

  it('keeps waiting through a change of case only', () => {
    given([created])
      .when({ type: 'ChangeLink', ownerId: ada, code: 'ACME-shop' })
      .then([{ type: 'LinkCodeChanged', data: { code: 'ACME-shop', previousCode: 'acme-shop', review } }]);
  });
});

describe('the lists', () => {
  it('refuses a word already listed, and lists it again once deleted', () => {
    const given = specFor(prohibitedWordDecider);
    const added = {
      type: 'ProhibitedWordAdded',
      data: { wordId: word, word: 'scam', category: 'spam', severity: 'high' },
    } as const;
    const add = { type: 'AddWord', wordId: word, word: 'SCAM', category: 'spam', severity: 'high' } as const;
    given([added]).when(add).thenThrows({ code: 'CONFLICT', status: 409 });
    given([added, { type: 'ProhibitedWordDeleted', data: { wordId: word } }])
      .when(add)
      .then([{ type: 'ProhibitedWordAdded', data: { ...added.data, word: 'SCAM' } }]);
    given([])
      .when({ type: 'AddWord', wordId: word, word: '!!', category: 'spam', severity: 'low' })
      .thenThrows({ status: 400 });
  });

  it('switches a brand only when it changes, and knows no brand never listed', () => {
    const given = specFor(protectedBrandDecider);
    const added = {
      type: 'ProtectedBrandAdded',
      data: { brandId: brand, brand: 'Acme', category: 'tech', requiresApproval: true },
    } as const;
    given([added]).when({ type: 'SetBrandActive', brandId: brand, isActive: true }).then([]);
    given([added])
      .when({ type: 'SetBrandActive', brandId: brand, isActive: false })
      .then([{ type: 'ProtectedBrandSwitchedOff', data: { brandId: brand } }]);
    given([]).when({ type: 'DeleteBrand', brandId: brand }).thenThrows({ code: 'NOT_FOUND', status: 404 });
  });
});
