/** One e-mail to one recipient. `text` is always sent; `html` is an optional alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail: over SMTP when SMTP_URL is set, otherwise into DATA_DIR/outbox/ (the embedded default). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
