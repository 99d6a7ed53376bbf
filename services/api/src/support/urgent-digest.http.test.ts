import { randomUUID } from 'node:crypto';
import type { Ticket } from '@sniplink/contracts';
import { fixedClock, type MailMessage } from '@sniplink/platform';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { mailsTo } from '@sniplink/test-support/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketReference } from './notifications';
import { DIGEST_INTERVAL_MS, UrgentTicketDigest } from './urgent-digest';

const ADMINS = ['digest.first@example.com', 'digest.second@example.com'];
const MINUTE = 60_000;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: ADMINS.join(',') });
  for (const email of ADMINS) {
    const registered = await api.client().post('/api/auth/register', { email, password: 'correct horse' });
    expect(registered.status).toBe(201);
  }
});
afterAll(() => api.close());

/** What a mailer was handed, by recipient. */
function recordingMailer(failing = false) {
  const sent: MailMessage[] = [];
  return {
    sent,
    to: (email: string) => sent.filter((mail) => mail.to === email),
    send: async (mail: MailMessage) => {
      if (failing) throw new Error('the mail server refused the connection');
      sent.push(mail);
    },
  };
}

/** A process's digest over the app's database, at `atMs` on its own clock. */
const digestAt = (atMs: number, mailer: { send(mail: MailMessage): Promise<void> } = api.runtime.mailer) =>
  new UrgentTicketDigest({
    db: api.runtime.database.db,
    mailer,
    clock: fixedClock(new Date(atMs).toISOString()),
    publicUrl: 'https://snip.example.com',
  });

/** The mails about urgent tickets in an admin's outbox (sign-up sent each a confirmation too). */
const urgentMailsTo = async (email: string) =>
  (await mailsTo(api.config.dataDir, email)).filter((mail) =>
    /\r\nSubject: .*urgent support ticket/i.test(mail),
  );

const pendingCount = async () =>
  (await api.runtime.database.db.selectFrom('support_urgent_notices').select('ticket_id').execute()).length;

describe('urgent tickets opened in a burst', () => {
  it('mails each admin the first at once, then one digest of the rest after 10 minutes: two mails, not five', async () => {
    const { client } = await signedUpClient(api, 'digest.burst');
    const opened: Ticket[] = [];
    for (let index = 0; index < 5; index += 1) opened.push(await openUrgent(client, `Down ${index}`));
    const references = opened.map((ticket) => ticketReference(ticket.id));

    await expect.poll(() => urgentMailsTo(ADMINS[0] ?? '')).toHaveLength(1);
    const [first = ''] = await urgentMailsTo(ADMINS[0] ?? '');
    expect(first).toContain(references[0]);
    expect(first).not.toContain('Down 0');
    // The rest wait for the digest: the 10 minutes pass on the next process's clock.
    // (Should the first digest have gathered all five, as under a heavy load it may, there is none left.)
    const outcome = await digestAt(Date.now() + DIGEST_INTERVAL_MS + MINUTE).send();
    expect(['sent', 'nothing']).toContain(outcome.kind);
    expect(await pendingCount()).toBe(0);
    for (const admin of ADMINS) {
      const mails = await urgentMailsTo(admin);
      expect(mails.length, admin).toBeGreaterThanOrEqual(1);
      expect(mails.length, admin).toBeLessThanOrEqual(2);
      for (const reference of references) {
        expect(
          mails.filter((mail) => mail.includes(reference)),
          `${admin} ${reference}`,
        ).toHaveLength(1);
      }
      expect(mails.join('\n')).toContain('https://snip.example.com/admin?tab=support');
    }
  });
});

describe('the digest across processes and restarts', () => {
  // Well after the burst's digest, so each scenario starts with a digest due.
  let now = Date.now() + 60 * MINUTE;
  const later = (minutes: number) => {
    now += minutes * MINUTE;
    return now;
  };

  it('is sent once when two processes send at the same moment', async () => {
    const at = later(60);
    const [one, other] = [recordingMailer(), recordingMailer()];
    const tickets = [randomUUID(), randomUUID(), randomUUID()];
    for (const ticket of tickets) await digestAt(at, one).record(ticket);
    const outcomes = await Promise.all([digestAt(at, one).send(), digestAt(at, other).send()]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['nothing', 'sent']);
    for (const admin of ADMINS) {
      const mails = [...one.to(admin), ...other.to(admin)];
      expect(mails, admin).toHaveLength(1);
      expect(mails[0]?.subject).toBe('3 urgent support tickets');
      for (const ticket of tickets) expect(mails[0]?.text).toContain(ticketReference(ticket));
    }
  });

  it('keeps the tickets held back through a restart: the next process sends them when due', async () => {
    const at = later(60);
    const before = recordingMailer();
    await digestAt(at, before).record(randomUUID());
    expect((await digestAt(at, before).send()).kind).toBe('sent');
    const held = randomUUID();
    await digestAt(at + MINUTE, before).record(held);
    expect(await digestAt(at + MINUTE, before).send()).toMatchObject({ kind: 'held', waitMs: 9 * MINUTE });

    const after = recordingMailer();
    expect((await digestAt(at + 5 * MINUTE, after).send()).kind).toBe('held');
    expect(after.sent).toEqual([]);
    expect((await digestAt(at + 10 * MINUTE, after).send()).kind).toBe('sent');
    for (const admin of ADMINS) {
      expect(after.to(admin).map((mail) => mail.subject)).toEqual([
        `Urgent support ticket ${ticketReference(held)}`,
      ]);
    }
  });

  it('keeps the tickets when the mail server fails, and sends them on the next try', async () => {
    const at = later(60);
    const ticket = randomUUID();
    await digestAt(at).record(ticket);
    await expect(digestAt(at, recordingMailer(true)).send()).rejects.toThrow('refused');
    expect(await pendingCount()).toBe(1);
    const retry = recordingMailer();
    expect((await digestAt(at, retry).send()).kind).toBe('sent');
    expect(retry.sent.map((mail) => mail.to).sort()).toEqual([...ADMINS].sort());
    expect(retry.sent[0]?.text).toContain(ticketReference(ticket));
  });
});

async function openUrgent(client: HttpClient, subject: string): Promise<Ticket> {
  const response = await client.post<Ticket>('/api/support/tickets', {
    subject,
    message: 'Nothing redirects.',
    priority: 'urgent',
  });
  expect(response.status).toBe(201);
  return response.body;
}
