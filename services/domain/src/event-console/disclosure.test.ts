import type { DisclosureEvent } from '@sniplink/contracts/event-console/events';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, expect, it } from 'vitest';
import { type DisclosureCommand, disclosureDecider } from './disclosure';
import { streamKindOf } from './stream-deciders';

const given = specFor(disclosureDecider);
const reveal: DisclosureCommand = {
  type: 'RevealPersonalData',
  streamId: 'user-01890000-0000-7000-8000-0000000000a1',
  eventId: '01890000-0000-7000-8000-0000000000e1',
  revision: 0,
  eventType: 'UserRegistered',
  fields: ['email'],
};
const { type: _command, ...data } = reveal;
const revealed: DisclosureEvent = { type: 'PersonalDataRevealed', data };

describe('disclosure decider', () => {
  it('records every reveal, the same event’s again too: each reading is on record', () => {
    given([]).when(reveal).then([revealed]);
    given([revealed]).when(reveal).then([revealed]);
  });
});

describe('which decider folds a stream', () => {
  it('is found by the stream’s whole category, never by a shorter one it starts with', () => {
    expect(streamKindOf('billing-42')?.stream.category).toBe('billing');
    expect(streamKindOf('billingcustomer-cus_1')?.stream.category).toBe('billingcustomer');
    expect(streamKindOf('disclosure-user-1')?.stream.category).toBe('disclosure');
    expect(streamKindOf('shortcode-abc')?.stream.idOf('shortcode-abc')).toBe('abc');
    expect(streamKindOf('clicks-1')).toBeUndefined();
  });
});
