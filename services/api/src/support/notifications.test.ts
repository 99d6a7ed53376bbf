import { describe, expect, it } from 'vitest';
import { staffReplyMail, ticketReference, urgentTicketMail } from './notifications';

const TICKET = '01890000-0000-7000-8000-00000000abcd';

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
    const mail = urgentTicketMail('ada@example.com', TICKET, 'https://sniplink.test');
    expect(mail).toMatchObject({ subject: 'Urgent support ticket #0000ABCD' });
    expect(mail.html).toBeUndefined();
    expect(mail.text).toContain('https://sniplink.test/admin?tab=support');
  });
});
