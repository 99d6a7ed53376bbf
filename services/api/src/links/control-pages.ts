import type { ControlPages } from '@sniplink/redirect';
import type { FastifyReply } from 'fastify';
import { INLINE_STYLE_PAGE_POLICY } from '../http/security-headers';
import { sendSmallPage, smallPage } from '../http/small-page';

/**
 * The pages `/s/{code}` answers for a link's controls. Every one is `no-store` (a change of the link shows
 * at the next visit) and `noindex` (the page's meta and the X-Robots-Tag header), and none names the
 * target. Statuses:
 * - password form 403: the link is there, but not for this visitor yet (a 401 would need an HTTP
 *   authentication scheme the form is not); a wrong password 403 again, with the message;
 * - too many wrong passwords 429, with Retry-After;
 * - paused 404: the owner has taken the link out of service for now, so it leads nowhere, as an unknown
 *   code; 410 would say "for good" (a pause is undone), 403 is a suspended account's, 451 claims a legal
 *   demand;
 * - expired 410: past its time or its clicks, the link never leads to its target again on its own.
 */
const FORM_STYLE = `
  form { display: grid; gap: .5rem; text-align: left; margin-top: 1.25rem; }
  label { font-weight: 600; }
  input { font: inherit; padding: .6rem .75rem; border: 1px solid #868e96; border-radius: 8px; }
  input:focus-visible, button:focus-visible { outline: 3px solid #1c7ed6; outline-offset: 2px; }
  button { font: inherit; font-weight: 600; padding: .65rem 1rem; border: 0; border-radius: 8px;
    background: #1864ab; color: #fff; cursor: pointer; margin-top: .5rem; }
  button:hover { background: #1c7ed6; }
  .error { color: #c92a2a; margin: 0; }`;

const NO_STORE = 'private, no-store';

function passwordPage(code: string, wrong: boolean): string {
  const action = `/s/${encodeURIComponent(code)}`;
  const error = wrong
    ? '\n    <p class="error" id="password-error" role="alert">That password is not right. Try again.</p>'
    : '';
  const describedBy = wrong ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  return smallPage({
    title: 'This link is password protected',
    style: FORM_STYLE,
    main: `  <h1>This link is password protected</h1>
  <p>Enter the password you were given to continue.</p>
  <form method="post" action="${action}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" required maxlength="128" autocomplete="off" autofocus${describedBy}>${error}
    <button type="submit">Continue</button>
  </form>`,
  });
}

const PAUSED_PAGE = smallPage({
  title: 'This link is paused',
  style: '',
  main: `  <h1>This link is paused</h1>
  <p>The owner of this short link has paused it, so it does not lead anywhere for now. Try again later.</p>`,
});

const EXPIRED_PAGE = smallPage({
  title: 'This link has expired',
  style: '',
  main: `  <h1>This link has expired</h1>
  <p>This short link was set to stop working after a date or a number of visits, and it no longer leads anywhere.</p>`,
});

const TOO_MANY_PAGE = smallPage({
  title: 'Too many attempts',
  style: '',
  main: `  <h1>Too many attempts</h1>
  <p>That was too many wrong passwords for this link. Wait a while, then try again.</p>`,
});

/**
 * The password form's policy: browsers hold a form's whole navigation to `form-action`, redirects
 * included, so the right password's 302 to the target (any http or https site) must be allowed, or the
 * visitor stays on the form. The page's only form posts to this site, and it shows nothing a visitor or
 * owner wrote, so nothing else can post from it.
 */
const PASSWORD_PAGE_POLICY = INLINE_STYLE_PAGE_POLICY.replace(
  "form-action 'self'",
  "form-action 'self' https: http:",
);

function send(reply: FastifyReply, status: number, html: string, policy?: string): FastifyReply {
  reply.header('x-robots-tag', 'noindex');
  return sendSmallPage(reply, { status, cacheControl: NO_STORE, html, ...(policy && { policy }) });
}

/** The control pages, each through `secure` (the app's security headers). */
export function linkControlPages(secure: (reply: FastifyReply) => FastifyReply): ControlPages {
  return {
    password: (reply, { code, wrong }) =>
      send(secure(reply), 403, passwordPage(code, wrong), PASSWORD_PAGE_POLICY),
    paused: (reply) => send(secure(reply), 404, PAUSED_PAGE),
    expired: (reply) => send(secure(reply), 410, EXPIRED_PAGE),
    tooManyGuesses: (reply, seconds) =>
      send(secure(reply).header('retry-after', String(seconds)), 429, TOO_MANY_PAGE),
  };
}
