import type { ErrorCode } from '@sniplink/contracts';
import type { RequestSchemaName, ResponseSchemaName } from './schemas';

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface ParameterSpec {
  name: string;
  in: 'query' | 'header';
  description: string;
  schema: Record<string, unknown>;
}

export interface SuccessSpec {
  status: number;
  description: string;
  /** A component schema, or `[name]` for a list of them. */
  json?: ResponseSchemaName | [ResponseSchemaName];
  /** Content other than JSON (CSV, HTML). */
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, string>;
}

export interface OperationSpec {
  tag: string;
  summary: string;
  description?: string;
  /** `required`: 401 UNAUTHORIZED without a live `sid` cookie; `optional`: a session changes the answer. */
  session?: 'required' | 'optional';
  /** The JSON body, validated by the contract schema of this name. */
  body?: RequestSchemaName;
  parameters?: ParameterSpec[];
  success: SuccessSpec;
  /**
   * The errors of this call's own rules, by status. Those that follow from its shape are added when the
   * document is built: 401 for a session, 403 FORBIDDEN_ORIGIN and the body errors for a state change.
   */
  errors?: Partial<Record<number, ErrorCode[]>>;
  /** Answers that are not an error body (the readiness report's 503, the redirect's pages). */
  otherResponses?: Record<
    number,
    { description: string; content: Record<string, { schema: Record<string, unknown> }> }
  >;
}

export type PathSpecs = Record<string, Partial<Record<Method, OperationSpec>>>;

/** A command that records events can find its stream too contended to append to: 503, try again. */
const BUSY = { 503: ['SERVICE_UNAVAILABLE'] } as const satisfies Record<number, ErrorCode[]>;
const PLAN_LIMITS: ErrorCode[] = ['SUBSCRIPTION_REQUIRED', 'MONTHLY_LIMIT_REACHED'];
const SESSION_SET = 'Set-Cookie: `sid`, the new session (HttpOnly, SameSite=Lax)';
const HTML = { 'text/html': { schema: { type: 'string' } } };

/**
 * Every route the app serves, as the code answers it (read from the handlers and the errors they
 * throw). Keep in step with the routes: `openapi.test.ts` fails when a registered route is missing here.
 */
export const PATH_SPECS: PathSpecs = {
  '/api/auth/register': {
    post: {
      tag: 'Accounts',
      summary: 'Create a password account and sign in',
      description: 'Attempts are counted per client address (SIGNUP_MAX_PER_IP); past the limit: 429.',
      body: 'RegisterBody',
      success: {
        status: 201,
        description: 'The new user',
        json: 'User',
        headers: { 'Set-Cookie': SESSION_SET },
      },
      errors: { 409: ['EMAIL_TAKEN'], 429: ['RATE_LIMITED'], ...BUSY },
    },
  },
  '/api/auth/login': {
    post: {
      tag: 'Accounts',
      summary: 'Sign in with e-mail and password',
      description:
        'Failed sign-ins are counted per client address and per account at one address (past the limit: 429), ' +
        'and per account across addresses, which only slows its answers down (at most 3 s).',
      body: 'LoginBody',
      success: { status: 200, description: 'The user', json: 'User', headers: { 'Set-Cookie': SESSION_SET } },
      errors: { 401: ['INVALID_CREDENTIALS'], 403: ['ACCOUNT_SUSPENDED'], 429: ['RATE_LIMITED'] },
    },
  },
  '/api/auth/user': {
    get: {
      tag: 'Accounts',
      summary: 'The signed-in user',
      session: 'required',
      success: { status: 200, description: 'The user', json: 'User' },
    },
  },
  '/api/user/profile': {
    patch: {
      tag: 'Accounts',
      summary: 'Change first and last name',
      description: 'An absent field is unchanged; blank or null clears it; other fields are ignored.',
      session: 'required',
      body: 'ProfileBody',
      success: { status: 200, description: 'The user', json: 'User' },
      errors: { ...BUSY },
    },
  },
  '/api/auth/logout': {
    post: {
      tag: 'Accounts',
      summary: 'End this session',
      session: 'optional',
      success: { status: 200, description: 'Signed out (the cookie is cleared)', json: 'Ok' },
    },
  },
  '/api/auth/logout-all': {
    post: {
      tag: 'Accounts',
      summary: 'End every session of the account',
      session: 'required',
      success: { status: 200, description: 'How many sessions ended', json: 'SessionsEnded' },
    },
  },
  '/api/auth/password-reset': {
    post: {
      tag: 'Accounts',
      summary: 'Mail a password-reset link',
      description:
        'Always 202, whether or not an account holds the address; at most 3 mails an hour per account.',
      body: 'PasswordResetBody',
      success: { status: 202, description: 'Accepted', json: 'Ok' },
    },
  },
  '/api/auth/password-reset/confirm': {
    post: {
      tag: 'Accounts',
      summary: 'Set a new password with a reset link',
      description: 'The link works once, for an hour; every session of the account ends.',
      body: 'PasswordResetConfirmBody',
      success: { status: 200, description: 'The password is changed', json: 'Ok' },
      errors: { 400: ['INVALID_TOKEN'], ...BUSY },
    },
  },
  '/api/auth/resend-verification': {
    post: {
      tag: 'Accounts',
      summary: 'Mail the e-mail confirmation link again',
      description: 'At most 3 confirmation mails an hour per account (the one sent at sign-up included).',
      session: 'required',
      success: { status: 202, description: 'Accepted: the mail is on its way', json: 'Ok' },
      errors: { 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
    },
  },
  '/api/login': {
    get: {
      tag: 'Navigations',
      summary: 'Start signing in (a browser navigation)',
      description: 'To the OpenID Connect provider when one is configured, else to the sign-in page.',
      parameters: [
        {
          name: 'returnTo',
          in: 'query',
          description: 'A path of this site to return to; anything else is replaced by `/`',
          schema: { type: 'string' },
        },
        {
          name: 'tab',
          in: 'query',
          description: '`create` opens the sign-in page on its Create account tab',
          schema: { type: 'string', enum: ['create'] },
        },
      ],
      success: { status: 302, description: 'Redirect', headers: { Location: 'The provider, or `/login`' } },
    },
  },
  '/api/logout': {
    get: {
      tag: 'Navigations',
      summary: 'Sign out (a browser navigation)',
      description:
        'Sent by another site (`Sec-Fetch-Site: cross-site` or `same-site`) to a signed-in browser: the ' +
        '"Sign out?" page instead, nothing ended; its button posts to `POST /api/logout`.',
      session: 'optional',
      success: { status: 302, description: 'Redirect', headers: { Location: '`/`' } },
      otherResponses: { 200: { description: 'The "Sign out?" page', content: HTML } },
    },
    post: {
      tag: 'Navigations',
      summary: 'Sign out (the "Sign out?" button, a form of this site)',
      description:
        'Takes the empty form body; `Sec-Fetch-Site: cross-site` or `same-site` is refused like a foreign Origin.',
      session: 'optional',
      success: { status: 303, description: 'Redirect', headers: { Location: '`/`' } },
    },
  },
  '/api/auth/callback': {
    get: {
      tag: 'Navigations',
      summary: "The OpenID Connect provider's answer (only when OIDC_ISSUER is set)",
      description: 'Signs in and goes to `returnTo`; a refused sign-in goes to `/login?error=…`.',
      parameters: [
        { name: 'code', in: 'query', description: 'From the provider', schema: { type: 'string' } },
        { name: 'state', in: 'query', description: 'From the provider', schema: { type: 'string' } },
      ],
      success: {
        status: 302,
        description: 'Redirect',
        headers: { Location: '`returnTo`, or `/login?error=…`', 'Set-Cookie': SESSION_SET },
      },
    },
  },
  '/api/auth/verify-email': {
    get: {
      tag: 'Navigations',
      summary: 'The confirmation link mailed at sign-up (a browser navigation)',
      description: 'Works once, for 24 hours; confirms the address of the account it was mailed for.',
      session: 'optional',
      parameters: [{ name: 'token', in: 'query', description: 'From the mail', schema: { type: 'string' } }],
      success: {
        status: 302,
        description: 'Redirect',
        headers: {
          Location:
            '`/home?emailVerified=1` (signed out: `/login?…`); `emailVerified=expired` for a used, expired or unknown link',
        },
      },
    },
  },
  '/api/links': {
    get: {
      tag: 'Links',
      summary: "The user's links, newest first",
      session: 'required',
      parameters: [
        {
          name: 'search',
          in: 'query',
          description: 'Matches title, target or code, ignoring case',
          schema: { type: 'string' },
        },
        {
          name: 'limit',
          in: 'query',
          description: 'At most this many (at most 1000); not a whole number: ignored',
          schema: { type: 'integer', minimum: 0, maximum: 1000 },
        },
        {
          name: 'offset',
          in: 'query',
          description: 'Skip this many; not a whole number: ignored',
          schema: { type: 'integer', minimum: 0 },
        },
      ],
      success: { status: 200, description: 'The links', json: ['Link'] },
      errors: { 400: ['VALIDATION_FAILED'] },
    },
    post: {
      tag: 'Links',
      summary: 'Shorten a URL',
      description: 'Free accounts hold 5 links; Pro makes 500 a month.',
      session: 'required',
      body: 'CreateLinkBody',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'A repeated create with the same key (1-200 characters) gets the first answer',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      ],
      success: { status: 201, description: 'The link', json: 'Link' },
      errors: {
        400: ['INVALID_URL', 'INVALID_SHORT_CODE'],
        403: PLAN_LIMITS,
        409: ['SHORT_CODE_TAKEN', 'CONFLICT'],
        ...BUSY,
      },
    },
  },
  '/api/links/{id}': {
    patch: {
      tag: 'Links',
      summary: 'Change title, target or code',
      description:
        'An absent field is unchanged; a null or blank title clears it. A change to a new code counts against CODE_CHANGES_PER_DAY (429 past it, with Retry-After).',
      session: 'required',
      body: 'UpdateLinkBody',
      success: { status: 200, description: 'The link', json: 'Link' },
      errors: {
        400: ['INVALID_URL', 'INVALID_SHORT_CODE'],
        404: ['NOT_FOUND'],
        409: ['SHORT_CODE_TAKEN'],
        429: ['RATE_LIMITED'],
        ...BUSY,
      },
    },
    delete: {
      tag: 'Links',
      summary: 'Delete a link',
      session: 'required',
      success: { status: 200, description: 'Deleted', json: 'DeletedLink' },
      errors: { 404: ['NOT_FOUND'], ...BUSY },
    },
  },
  '/api/links/{id}/duplicate': {
    post: {
      tag: 'Links',
      summary: 'A new link to the same target, with a new code',
      session: 'required',
      success: { status: 201, description: 'The new link', json: 'Link' },
      errors: { 403: PLAN_LIMITS, 404: ['NOT_FOUND'], ...BUSY },
    },
  },
  '/api/links/check-availability/{code}': {
    get: {
      tag: 'Links',
      summary: 'Whether the user may put a link on this code',
      session: 'required',
      success: { status: 200, description: 'The answer, with a message', json: 'Availability' },
    },
  },
  '/api/analytics/link/{id}': {
    get: {
      tag: 'Analytics',
      summary: "One link's clicks by device, referrer, country, browser, OS and day",
      session: 'required',
      success: { status: 200, description: 'The breakdowns', json: 'LinkAnalytics' },
      errors: { 404: ['NOT_FOUND'] },
    },
  },
  '/api/analytics/user': {
    get: {
      tag: 'Analytics',
      summary: "The user's totals",
      session: 'required',
      success: { status: 200, description: 'Links and clicks', json: 'UserAnalytics' },
    },
  },
  '/api/analytics/export': {
    get: {
      tag: 'Analytics',
      summary: "The user's links as CSV (a download)",
      session: 'required',
      success: {
        status: 200,
        description: 'Short Code, Short URL, Original URL, Title, Created, Clicks',
        content: { 'text/csv': { schema: { type: 'string' } } },
        headers: { 'Content-Disposition': 'attachment; filename="sniplink-links-{date}.csv"' },
      },
    },
  },
  '/api/demo/shorten': {
    post: {
      tag: 'Demo',
      summary: 'Shorten a URL without an account (the landing page demo)',
      description:
        "A visitor's link lasts 7 days unless signing up claims it; a signed-in caller gets a real link.",
      session: 'optional',
      body: 'DemoShortenBody',
      success: {
        status: 201,
        description: 'The demo link',
        json: 'DemoLink',
        headers: { 'Set-Cookie': "`visitor`, which tells this browser's demo links apart" },
      },
      errors: { 400: ['INVALID_URL'], 403: PLAN_LIMITS, 429: ['RATE_LIMITED'], ...BUSY },
    },
  },
  '/api/demo/links': {
    get: {
      tag: 'Demo',
      summary: "This browser's (or the user's) demo links, newest first",
      session: 'optional',
      success: { status: 200, description: 'The demo links', json: ['DemoLink'] },
      errors: { 429: ['RATE_LIMITED'] },
    },
  },
  '/api/docs': {
    get: {
      tag: 'Docs',
      summary: 'This document (OpenAPI 3.1)',
      success: { status: 200, description: 'The document', content: { 'application/json': { schema: {} } } },
    },
  },
  '/api/docs.html': {
    get: {
      tag: 'Docs',
      summary: 'This document as a readable page',
      success: { status: 200, description: 'The page', content: HTML },
    },
  },
  '/s/{code}': {
    get: {
      tag: 'Redirect',
      summary: 'Follow a short link',
      success: { status: 302, description: 'To the target', headers: { Location: 'The target URL' } },
      otherResponses: {
        404: {
          description: "No live link has this code: the web app's not-found page (or NOT_FOUND without it)",
          content: { ...HTML, 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
        410: { description: "A visitor's demo link past its 7 days: a short page", content: HTML },
      },
    },
  },
  '/healthz': {
    get: {
      tag: 'Health',
      summary: 'The process is up',
      success: { status: 200, description: 'Alive', json: 'Liveness' },
    },
  },
  '/readyz': {
    get: {
      tag: 'Health',
      summary: 'Every dependency answers',
      success: { status: 200, description: 'Ready', json: 'Readiness' },
      otherResponses: {
        503: {
          description: 'A check failed; the same report names it',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
        },
      },
    },
  },
};
