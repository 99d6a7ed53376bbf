import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logging';
import { OutboxMailer } from './outbox';
import type { Mailer } from './port';
import { SmtpMailer } from './smtp';

export { OutboxMailer } from './outbox';
export type { Mailer, MailMessage } from './port';
export { SmtpMailer } from './smtp';

/** SMTP when SMTP_URL is set; otherwise DATA_DIR/outbox/, so the embedded default needs no mail server. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: Logger): Mailer {
  if (config.smtpUrl) {
    // The host only: the URL may carry the SMTP password.
    log.info({ host: new URL(config.smtpUrl).host }, 'mail goes out over SMTP');
    return new SmtpMailer(config.smtpUrl, config.mailFrom);
  }
  const outbox = path.join(config.dataDir, 'outbox');
  log.info({ outbox }, 'SMTP_URL is not set: mail is written to the outbox directory');
  return new OutboxMailer(outbox, config.mailFrom, log);
}
