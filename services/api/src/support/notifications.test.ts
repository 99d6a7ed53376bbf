import { describe, expect, it } from 'vitest';
import { staffReplyMail, ticketReference } from './notifications';
import { urgentTicketsMail } from './urgent-digest';

const TICKET = '01890000-0000-7000-8000-00000000abcd';
const OPENED = new Date('2026-11-28T09:30:12Z');

describe('the support mails', () => {
  it('name a ticket by a reference made of the end of its id', () => {
    expect(ticketReference(TICKET)).toBe('#0000ABCD');
  });

  it('quote a staff reply as plain text, with no HTML part and nothing typed in the subject', () => {
    const mail = staffReplyMail(
      'uma@example.com',
      TICKET,
      'Line one\n<b>Line two</b>',
      'https://sniplink.test',
    );
    expect(mail.html).toBeUndefined();
    expect(mail.subject).toBe('Support ticket #0000ABCD: the Support Team replied');
    expect(mail.text).toContain('> Line one\n> <b>Line two</b>');
    expect(mail.text).toContain('https://sniplink.test/home');
  });

  it('tell an admin of an urgent ticket by its reference only', () => {
    const mail = urgentTicketsMail(
      'ada@example.com',
      [{ ticketId: TICKET, openedAt: OPENED }],
      'https://sniplink.test',
    );
    expect(mail).toMatchObject({ subject: 'Urgent support ticket #0000ABCD' });
    expect(mail.html).toBeUndefined();
    expect(mail.text).toContain('#0000ABCD  opened 2026-11-28 09:30 UTC');
    expect(mail.text).toContain('https://sniplink.test/admin?tab=support');
  });

  it('list several urgent tickets in one digest, naming the first 50 and counting the rest', () => {
    const tickets = Array.from({ length: 52 }, (_, index) => ({
      ticketId: `01890000-0000-7000-8000-${String(index).padStart(12, '0')}`,
      openedAt: OPENED,
    }));
    const mail = urgentTicketsMail('ada@example.com', tickets, 'https://sniplink.test');
    expect(mail.subject).toBe('52 urgent support tickets');
    expect(mail.text).toContain('#00000000  opened');
    expect(mail.text).toContain('#00000049  opened');
    expect(mail.text).not.toContain('#00000050');
    expect(mail.text).toContain('and 2 more');
  });
});
