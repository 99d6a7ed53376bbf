import type {
  CreateLinkBody,
  Link,
  ProOnlyControl,
  SettingValues,
  TargetingRule,
  TargetingWhen,
} from '@sniplink/contracts';
import { proOnlyControlMessage } from '@sniplink/contracts';
import {
  checkTargetUrl,
  DomainError,
  ForbiddenError,
  type LinkControlChange,
  ValidationError,
} from '@sniplink/domain';
import type { Clock, Database, IdSource } from '@sniplink/platform';
import type { LinkRow } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import { hashPassword } from '../accounts/passwords';

/** The control fields of a create or an edit body (the same on both). */
export type ControlFields = Pick<
  CreateLinkBody,
  'password' | 'expiresAt' | 'maxClicks' | 'fallbackUrl' | 'paused' | 'tags' | 'rules'
>;

export interface LinkControlDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: IdSource;
  /** The admin's settings in force: which controls are kept for Pro. */
  settings(): SettingValues;
  /** Whether the account is Pro now; asked only when a restricted control is being set. */
  isPro(userId: string): Promise<boolean>;
  /** This site's origins: a fallback to one of its own short links would loop. */
  ownOrigins: readonly string[];
}

const PRO_ONLY_SETTING: Record<ProOnlyControl, keyof SettingValues> = {
  password: 'passwordProOnly',
  expiry: 'expiryProOnly',
  pause: 'pauseProOnly',
  tags: 'tagsProOnly',
  targeting: 'targetingProOnly',
};

/**
 * Turns the control fields of a create or an edit into the change the link's decider takes: refuses a
 * restricted control to a Free account (only setting one: clearing is always allowed), an expiry not in the
 * future and a fallback that is not a public http(s) URL, and stores a new password's hash in its own row.
 */
export class LinkControlRules {
  constructor(private readonly deps: LinkControlDeps) {}

  async changeOf(ownerId: string, linkId: string, fields: ControlFields): Promise<LinkControlChange> {
    await this.checkPlan(ownerId, fields);
    const change: LinkControlChange = {};
    if (fields.expiresAt !== undefined) change.expiresAt = this.futureInstant(fields.expiresAt);
    if (fields.maxClicks !== undefined) change.maxClicks = fields.maxClicks;
    if (fields.fallbackUrl !== undefined) change.fallbackUrl = this.fallback(fields.fallbackUrl);
    if (fields.paused !== undefined) change.paused = fields.paused;
    if (fields.tags !== undefined) change.tags = fields.tags;
    if (fields.rules !== undefined) change.rules = this.rules(fields.rules);
    // Last, once everything else passed: a refused edit leaves no hash behind.
    if (fields.password !== undefined) change.passwordId = await this.storePassword(linkId, fields.password);
    return change;
  }

  /** The controls a set (not a clear) asks for, refused one by one to a Free account where restricted. */
  private async checkPlan(ownerId: string, fields: ControlFields): Promise<void> {
    const settings = this.deps.settings();
    const asked: ProOnlyControl[] = [];
    if (typeof fields.password === 'string') asked.push('password');
    if (fields.expiresAt || fields.maxClicks || fields.fallbackUrl) asked.push('expiry');
    if (fields.paused === true) asked.push('pause');
    if (fields.tags !== undefined && fields.tags.length > 0) asked.push('tags');
    if (fields.rules && fields.rules.length > 0) asked.push('targeting');
    const restricted = asked.filter((control) => settings[PRO_ONLY_SETTING[control]] === 1);
    const [first] = restricted;
    if (first === undefined || (await this.deps.isPro(ownerId))) return;
    throw new ForbiddenError('SUBSCRIPTION_REQUIRED', proOnlyControlMessage(first));
  }

  private futureInstant(expiresAt: string | null): string | null {
    if (expiresAt === null) return null;
    const at = new Date(expiresAt);
    if (at.getTime() <= this.deps.clock.now().getTime())
      throw new ValidationError('expiresAt must be in the future', 'expiresAt');
    return at.toISOString();
  }

  private fallback(url: string | null): string | null {
    if (url === null) return null;
    try {
      return checkTargetUrl(url, this.deps.ownOrigins);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new ValidationError(`fallbackUrl: ${error.message}`, 'fallbackUrl', 'INVALID_URL');
    }
  }

  /** Each rule's URL held to the rules of a target, named by its place (`rules[2].url`) when refused. */
  private rules(rules: readonly { when: TargetingWhen; url: string }[] | null): TargetingRule[] {
    return (rules ?? []).map(({ when, url }, index) => {
      try {
        return { when, url: checkTargetUrl(url, this.deps.ownOrigins) };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const field = `rules[${index}].url`;
        throw new ValidationError(`${field}: ${error.message}`, field, 'INVALID_URL');
      }
    });
  }

  private async storePassword(linkId: string, password: string | null): Promise<string | null> {
    if (password === null) return null;
    const passwordId = this.deps.ids.newId();
    await this.deps.db
      .insertInto('link_passwords')
      .values({ password_id: passwordId, link_id: linkId, hash: await hashPassword(password) })
      .execute();
    return passwordId;
  }
}

/** The controls as the link JSON has them; `used` is the link's counted clicks against its limit. */
export function controlsJson(
  row: LinkRow,
  used: number,
  now: Date,
): Pick<
  Link,
  | 'hasPassword'
  | 'expiresAt'
  | 'maxClicks'
  | 'clicksUsed'
  | 'fallbackUrl'
  | 'paused'
  | 'tags'
  | 'rules'
  | 'status'
> {
  const expired =
    (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) ||
    (row.max_clicks !== null && used >= row.max_clicks);
  return {
    hasPassword: row.password_id !== null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    maxClicks: row.max_clicks,
    clicksUsed: row.max_clicks === null ? null : used,
    fallbackUrl: row.fallback_url,
    paused: row.paused,
    tags: row.tags,
    rules: row.rules,
    status: row.paused ? 'paused' : expired ? 'expired' : 'active',
  };
}

/** Clicks counted against each limited link's limit (links without a row have used none). */
export async function clicksUsed(db: Kysely<Database>, rows: LinkRow[]): Promise<Map<string, number>> {
  const limited = rows.filter((row) => row.max_clicks !== null).map((row) => row.link_id);
  if (limited.length === 0) return new Map();
  const used = await db
    .selectFrom('link_click_uses')
    .select(['link_id', 'used'])
    .where('link_id', 'in', limited)
    .execute();
  return new Map(used.map((row) => [row.link_id, row.used]));
}

/** A deleted link's password hashes and click count: nothing reads them again, and a hash is kept no longer than needed. */
export async function forgetControls(db: Kysely<Database>, linkId: string): Promise<void> {
  await db.deleteFrom('link_passwords').where('link_id', '=', linkId).execute();
  await db.deleteFrom('link_click_uses').where('link_id', '=', linkId).execute();
}
