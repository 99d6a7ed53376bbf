import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailer, OutboxMailer, SmtpMailer } from './index';

const FROM = 'Sniplink <no-reply@sniplink.example>';
const LINK = 'http://localhost:3000/reset-password?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdefg';

/** A logger whose JSON lines are kept in memory. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('OutboxMailer', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sniplink-outbox-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('writes one readable .eml per message into a private outbox, and logs only the domain', async () => {
    const { log, lines } = capturingLogger();
    const outbox = path.join(dataDir, 'outbox');
    const mailer = new OutboxMailer(outbox, FROM, log);
    await mailer.send({ to: 'ada@example.com', subject: 'Reset your password', text: `Open\n${LINK}\n` });
    await mailer.send({ to: 'bob@example.org', subject: 'Grüße', text: 'second', html: '<p>second</p>' });

    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    expect((await stat(path.join(outbox, files[0] ?? ''))).mode & 0o777).toBe(0o600);

    const first = await readFile(path.join(outbox, files[0] ?? ''), 'utf8');
    const [head, body] = splitOnce(first);
    expect(head).toContain(`From: ${FROM}`);
    expect(head).toContain('To: ada@example.com');
    expect(head).toContain('Subject: Reset your password');
    expect(head).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/m);
    expect(head).toMatch(/^Message-ID: <[0-9a-f-]{36}@sniplink\.example>$/m);
    expect(head).toContain('Content-Transfer-Encoding: 8bit');
    // The link is in the file verbatim (not quoted-printable), so it can be copied from it.
    expect(body).toBe(`Open\r\n${LINK}\r\n\r\n`);

    const second = await readFile(path.join(outbox, files[1] ?? ''), 'utf8');
    expect(second).toContain(`Subject: =?UTF-8?B?${Buffer.from('Grüße').toString('base64')}?=`);
    expect(second).toMatch(/multipart\/alternative/);
    expect(second).toContain('<p>second</p>');

    const logged = lines.join('');
    expect(logged).toContain('"toDomain":"example.com"');
    expect(logged).not.toContain('ada@');
    expect(logged).not.toContain('token=');
  });

  it('narrows an existing outbox directory to 0700', async () => {
    const outbox = path.join(dataDir, 'outbox');
    await mkdir(outbox, { mode: 0o755 });
    await new OutboxMailer(outbox, FROM, pino({ level: 'silent' })).send({
      to: 'a@b.c',
      subject: 's',
      text: 't',
    });
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
  });

  it('refuses a header value with a line break (header injection)', async () => {
    const mailer = new OutboxMailer(path.join(dataDir, 'outbox'), FROM, pino({ level: 'silent' }));
    await expect(
      mailer.send({ to: 'a@example.com\r\nBcc: evil@example.com', subject: 's', text: 't' }),
    ).rejects.toThrow(/line break/);
  });

  it('is what createMailer gives without SMTP_URL, in DATA_DIR/outbox', () => {
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: FROM, dataDir }, pino({ level: 'silent' }));
    expect(mailer).toBeInstanceOf(OutboxMailer);
    expect((mailer as OutboxMailer).dir).toBe(path.join(dataDir, 'outbox'));
  });
});

describe('SmtpMailer', () => {
  it('delivers to an SMTP server: envelope, headers and body', async () => {
    const server = await startSmtpResponder();
    try {
      const mailer = createMailer(
        { smtpUrl: `smtp://127.0.0.1:${server.port}`, mailFrom: FROM, dataDir: '/nonexistent' },
        pino({ level: 'silent' }),
      );
      expect(mailer).toBeInstanceOf(SmtpMailer);
      await mailer.send({ to: 'ada@example.com', subject: 'Reset your password', text: `Open\n${LINK}\n` });
      const mail = await server.received;
      expect(mail.from).toBe('<no-reply@sniplink.example>');
      expect(mail.to).toEqual(['<ada@example.com>']);
      expect(mail.data).toMatch(/^From: Sniplink <no-reply@sniplink\.example>$/m);
      expect(mail.data).toMatch(/^To: ada@example\.com$/m);
      expect(mail.data).toMatch(/^Subject: Reset your password$/m);
      // nodemailer may fold the long link (quoted-printable); undo that before looking for it.
      expect(decodeQuotedPrintable(mail.data)).toContain(LINK);
    } finally {
      await server.close();
    }
  });
});

function splitOnce(text: string): [string, string] {
  const index = text.indexOf('\r\n\r\n');
  return [text.slice(0, index), text.slice(index + 4)];
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** "MAIL FROM:<a@b> SIZE=12" -> "<a@b>". */
const afterColon = (line: string) =>
  line
    .slice(line.indexOf(':') + 1)
    .trim()
    .split(' ')[0] ?? '';

interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** Just enough of an SMTP server (RFC 5321) on 127.0.0.1 to accept one message without TLS or auth. */
async function startSmtpResponder() {
  let resolveMail: (mail: ReceivedMail) => void = () => {};
  const received = new Promise<ReceivedMail>((resolve) => {
    resolveMail = resolve;
  });
  const server = net.createServer((socket) => {
    const mail: ReceivedMail = { from: '', to: [], data: '' };
    let buffer = '';
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 127.0.0.1 test SMTP');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end + 2).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          resolveMail(mail);
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 127.0.0.1');
        else if (verb === 'MAIL') {
          mail.from = afterColon(line);
          reply('250 OK');
        } else if (verb === 'RCPT') {
          mail.to.push(afterColon(line));
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else reply('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
