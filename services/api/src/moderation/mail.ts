import type { MailMessage } from '@sniplink/platform';

/**
 * The owner hears that an admin did not approve their code, why, and the code the link has now. Plain
 * text; the codes are the user's own and are short-code characters only.
 */
export function codeRejectedMail(input: {
  to: string;
  code: string;
  newCode: string;
  reason: string;
  publicUrl: string;
}): MailMessage {
  const { to, code, newCode, reason, publicUrl } = input;
  return {
    to,
    subject: 'Your short code was not approved',
    text: [
      'Hello,',
      '',
      `an admin did not approve the short code "${code}" for your link.`,
      `Reason: ${reason}`,
      '',
      `The link now has the short code "${newCode}": ${publicUrl}/s/${newCode}`,
      `You can change it on your dashboard: ${publicUrl}/home`,
      '',
      '-- Sniplink',
    ].join('\n'),
  };
}
