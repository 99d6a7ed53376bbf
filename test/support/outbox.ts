import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The messages in DATA_DIR/outbox addressed to `email`, oldest first (file names start with the time). */
export async function mailsTo(dataDir: string, email: string): Promise<string[]> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
  return texts.filter((text) => text.includes(`\r\nTo: ${email}\r\n`));
}

/** Mail is sent after the answer: waits (10 s at most) until `count` messages to `email` are there. */
export async function waitForMails(dataDir: string, email: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await mailsTo(dataDir, email);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} mail(s) to ${email}, found ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The e-mail confirmation link of a mail, or an error when it has none. */
export function verificationLink(mail: string): URL {
  const match = /(\S+\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(mail);
  if (!match?.[1]) throw new Error('no confirmation link in the mail');
  return new URL(match[1]);
}
