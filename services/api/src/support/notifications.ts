import type { Database, Logger, Mailer, MailMessage } from '@sniplink/platform';
import { adminEmails } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/accounts';

export interface SupportMailDeps {
  mailer: Mailer;
  db: Kysely<Database>;
  accounts: Pick<AccountService, 'user'>;
  publicUrl: string;
  log: Logger;
}

/** A ticket's reference in a mail's subject: never the user's text, only the end of its (random) id. */
export const ticketReference = (ticketId: string) => `#${ticketId.replace(/-/g, '').slice(-8).toUpperCase()}`;

/**
 * The support mails, sent after the answer (a slow mail server never holds up a request; a failure is
 * logged, the ticket is stored all the same). Plain text only: no HTML is ever built from what a user or
 * admin typed, and subjects carry the ticket's reference, never its subject.
 */
export class SupportMail {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: SupportMailDeps) {}

  /** The owner hears that the Support Team answered, with the answer. */
  staffReplied(ownerId: string, ticketId: string, reply: string): void {
    this.later(async () => {
      const to = (await this.deps.accounts.user(ownerId))?.email;
      if (!to) return;
      await this.deps.mailer.send(staffReplyMail(to, ticketId, reply, this.deps.publicUrl));
    });
  }

  /** Every admin hears of a new urgent ticket (its text stays in the console: it is the user's). */
  urgentTicketOpened(ticketId: string): void {
    this.later(async () => {
      for (const to of await adminEmails(this.deps.db))
        await this.deps.mailer.send(urgentTicketMail(to, ticketId, this.deps.publicUrl));
    });
  }

  /** Waits for the mails still being sent (the server is stopping). */
  async drain(): Promise<void> {
    await Promise.allSettled(this.pending);
  }

  private later(task: () => Promise<void>): void {
    const sending = task().catch((err: unknown) => {
      this.deps.log.error({ err }, 'support: a mail could not be sent');
    });
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }
}

export function staffReplyMail(to: string, ticketId: string, reply: string, publicUrl: string): MailMessage {
  return {
    to,
    subject: `Support ticket ${ticketReference(ticketId)}: the Support Team replied`,
    text: [
      'Hello,',
      '',
      `the Support Team replied to your support ticket ${ticketReference(ticketId)}:`,
      '',
      ...reply.split(/\r?\n/).map((line) => `> ${line}`),
      '',
      `To answer, open the Support Center on your dashboard: ${publicUrl}/home`,
      '',
      '-- Sniplink',
    ].join('\n'),
  };
}

export function urgentTicketMail(to: string, ticketId: string, publicUrl: string): MailMessage {
  return {
    to,
    subject: `Urgent support ticket ${ticketReference(ticketId)}`,
    text: [
      `A user opened an urgent support ticket, ${ticketReference(ticketId)}.`,
      '',
      `Read and answer it in the admin console's Support tab: ${publicUrl}/admin?tab=support`,
      '',
      '-- Sniplink',
    ].join('\n'),
  };
}
