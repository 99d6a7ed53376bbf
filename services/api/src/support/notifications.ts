import type { Logger, Mailer, MailMessage } from '@sniplink/platform';
import type { AccountService } from '../accounts/accounts';
import type { UrgentTicketDigest } from './urgent-digest';

export interface SupportMailDeps {
  mailer: Mailer;
  /** The admins' digest of urgent tickets (`urgent-digest.ts`). */
  digest: Pick<UrgentTicketDigest, 'record' | 'send'>;
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
  /** The digest held back by the last one's 10 minutes, sent once they are over (by this process). */
  private heldDigest: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: SupportMailDeps) {}

  /** The owner hears that the Support Team answered, with the answer. */
  staffReplied(ownerId: string, ticketId: string, reply: string): void {
    this.later(async () => {
      const to = (await this.deps.accounts.user(ownerId))?.email;
      if (!to) return;
      await this.deps.mailer.send(staffReplyMail(to, ticketId, reply, this.deps.publicUrl));
    });
  }

  /**
   * Every admin hears of a new urgent ticket in the next digest (its text stays in the console: it is the
   * user's). The ticket is recorded before the owner is answered; the digest goes out after the answer.
   */
  async urgentTicketOpened(ticketId: string): Promise<void> {
    try {
      await this.deps.digest.record(ticketId);
    } catch (err) {
      // The ticket is stored all the same, and the console lists it; only the mail about it is missed.
      this.deps.log.error(
        { err, ticketId },
        'support: an urgent ticket could not be recorded for the digest',
      );
      return;
    }
    this.sendDigest();
  }

  /**
   * Sends the digest of urgent tickets if it is due; else once it is. A process that stops before then
   * leaves the tickets recorded: the housekeeping sweep, or the next urgent ticket, sends them.
   */
  private sendDigest(): void {
    this.later(async () => {
      const outcome = await this.deps.digest.send();
      if (outcome.kind === 'held') this.sendDigestIn(outcome.waitMs);
    });
  }

  /** Waits for the mails still being sent (the server is stopping); a held digest is left recorded. */
  async drain(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.heldDigest);
    await Promise.allSettled(this.pending);
  }

  private sendDigestIn(waitMs: number): void {
    if (this.heldDigest || this.stopped) return;
    this.heldDigest = setTimeout(() => {
      this.heldDigest = undefined;
      this.sendDigest();
    }, waitMs);
    this.heldDigest.unref();
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
