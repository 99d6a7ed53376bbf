import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logging';
import type { Mailer, MailMessage } from './port';

/**
 * The embedded default without a mail server: each message becomes one `.eml` file in the outbox
 * directory, readable with any text viewer or mail client. The directory is private (0700) and the files
 * 0600, since they hold sign-in secrets such as reset links; the log names only the recipient's domain.
 */
export class OutboxMailer implements Mailer {
  /** The last file's time stamp: two messages sent within one millisecond still sort in sending order. */
  private lastStampMs = 0;

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.ensureDir();
    const now = new Date();
    this.lastStampMs = Math.max(now.getTime(), this.lastStampMs + 1);
    const stamp = fileStamp(new Date(this.lastStampMs));
    const file = path.join(this.dir, `${stamp}-${randomBytes(6).toString('hex')}.eml`);
    await writeFile(file, formatEml(this.from, message, now), { mode: 0o600, flag: 'wx' });
    this.log.info(
      { toDomain: domainOf(message.to), subject: message.subject, file },
      'mail written to the outbox (SMTP_URL is not set)',
    );
  }

  /** Checked on every send (mail is rare): an existing directory with wider rights is narrowed too. */
  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
  }
}

/** ISO 8601 basic format (20261122T040506.789Z): sorts by time and has no colons for other file systems. */
const fileStamp = (date: Date) => date.toISOString().replace(/[-:]/g, '');

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * An RFC 5322 message with its body left as 8-bit UTF-8 (not quoted-printable), so that a link in it can
 * be read and copied straight from the file.
 */
export function formatEml(from: string, message: MailMessage, date: Date): string {
  assertSingleLine(message.to, 'to');
  assertSingleLine(message.subject, 'subject');
  const headers = [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodeHeaderWord(message.subject)}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomUUID()}@${domainOf(addressOf(from)) || 'localhost'}>`,
    'MIME-Version: 1.0',
  ];
  const text = textPart('plain', message.text);
  if (message.html === undefined) return crlf(`${[...headers, text].join('\n')}\n`);
  const boundary = `sniplink-${randomBytes(12).toString('hex')}`;
  return crlf(
    [
      ...headers,
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      text,
      `--${boundary}`,
      textPart('html', message.html),
      `--${boundary}--`,
      '',
    ].join('\n'),
  );
}

function textPart(subtype: 'plain' | 'html', body: string): string {
  return [`Content-Type: text/${subtype}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit', '', body].join(
    '\n',
  );
}

/** A line break in a header value would start a header of the caller's choosing (header injection). */
function assertSingleLine(value: string, name: string): void {
  if (/[\r\n]/.test(value)) throw new Error(`The mail's ${name} must not contain a line break`);
}

/** RFC 2047: non-ASCII header text travels base64-encoded. */
function encodeHeaderWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
}

/** "Sniplink <no-reply@example.com>" -> "no-reply@example.com". */
const addressOf = (mailbox: string) => /<([^>]*)>/.exec(mailbox)?.[1] ?? mailbox;

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
