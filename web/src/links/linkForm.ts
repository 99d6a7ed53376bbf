import type { CreateLinkBody, Link, UpdateLinkBody } from '@sniplink/contracts';
import {
  checkTags,
  checkTargetingWhen,
  LINK_PASSWORD_RULE,
  MAX_CLICK_LIMIT,
  MAX_LINK_PASSWORD_LENGTH,
  normalizeTag,
  TARGETING_CONDITIONS,
  type TargetingCondition,
  type TargetingWhen,
} from '@sniplink/contracts/links/controls';
import { ApiError } from '../api/http';
import { fieldProblemOf } from './linkErrors';
import { typedUrlProblem, urlToSend } from './typedUrl';
import { hasUtm, noUtm, splitUtm, type UtmValues, withUtm } from './utm';

/** What an edit does with a link's password: leave it, replace it with the one typed, or remove it. */
export type PasswordAction = 'keep' | 'change' | 'remove';

/** One condition of a targeting rule as the form holds it: what it looks at, and the values it accepts. */
export interface RuleConditionValues {
  /** Its row's React key, stable while rows are added and removed around it. */
  key: string;
  type: TargetingCondition;
  values: string[];
}

/** A targeting rule as the form holds it: its conditions (all must hold) and where it sends visitors. */
export interface RuleFormValues {
  /** Its block's React key, stable while rules are added and removed around it. */
  key: string;
  conditions: RuleConditionValues[];
  url: string;
}

/** The create form's and the edit dialog's fields, as typed. */
export interface LinkFormValues {
  originalUrl: string;
  title: string;
  shortCode: string;
  utm: UtmValues;
  /** A new password (never the stored one, which does not leave the server). */
  password: string;
  passwordAction: PasswordAction;
  /** The picker's local time, `YYYY-MM-DD HH:mm:ss`, or null. */
  expiresAt: string | null;
  /** Empty: no limit. */
  maxClicks: number | string;
  fallbackUrl: string;
  paused: boolean;
  tags: string[];
  /** Targeting rules in order: the first a visitor matches sends them to its URL. */
  rules: RuleFormValues[];
}

export const emptyLinkForm: LinkFormValues = {
  originalUrl: '',
  title: '',
  shortCode: '',
  utm: noUtm,
  password: '',
  passwordAction: 'change',
  expiresAt: null,
  maxClicks: '',
  fallbackUrl: '',
  paused: false,
  tags: [],
  rules: [],
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the picker holds it: the reader's local time, `YYYY-MM-DD HH:mm:ss`. */
export function pickerTime(instant: string | Date): string {
  const d = new Date(instant);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The picker's local time as the instant the API takes (ISO 8601, UTC). */
export const instantOf = (picked: string): string => new Date(picked.replace(' ', 'T')).toISOString();

/**
 * The edit dialog's fields for a link as it is: the target without its utm parameters (they are in the
 * builder, so emptying one there removes it), and the controls; the password stays on the server.
 */
export function linkFormOf(link: Link): LinkFormValues {
  const { url, utm } = splitUtm(link.originalUrl);
  return {
    originalUrl: url,
    title: link.title ?? '',
    shortCode: link.shortCode,
    utm,
    password: '',
    passwordAction: link.hasPassword ? 'keep' : 'change',
    expiresAt: link.expiresAt === null ? null : pickerTime(link.expiresAt),
    maxClicks: link.maxClicks ?? '',
    fallbackUrl: link.fallbackUrl ?? '',
    paused: link.paused,
    tags: link.tags,
    rules: link.rules.map(ruleFormOf),
  };
}

/** A saved rule in the form: one condition row per condition it has. */
function ruleFormOf(rule: Link['rules'][number]): RuleFormValues {
  const conditions = TARGETING_CONDITIONS.flatMap((type) => {
    const values = rule.when[type];
    return values ? [{ key: rowKey(), type, values: [...values] }] : [];
  });
  return { key: rowKey(), conditions, url: rule.url };
}

let rowsMade = 0;
/** A key for a rule's or a condition's row, unique in the page. */
export const rowKey = (): string => `row-${++rowsMade}`;

/** A rule's conditions as the API takes them: rows of one type are merged into one list. */
function whenOf(conditions: readonly RuleConditionValues[]): TargetingWhen {
  const when: Record<string, string[]> = {};
  for (const { type, values } of conditions) when[type] = [...(when[type] ?? []), ...values];
  return when;
}

/** The rules as the API takes them, in the form's order. */
export const rulesToSend = (rules: readonly RuleFormValues[]) =>
  rules.map((rule) => ({ when: whenOf(rule.conditions), url: urlToSend(rule.url) }));

/** A new rule: by country, with no value yet. */
export const newRule = (): RuleFormValues => ({
  key: rowKey(),
  conditions: [{ key: rowKey(), type: 'country', values: [] }],
  url: '',
});

/** The target the API is sent: as typed (with `https://` where no scheme was typed), with the utm parameters. */
export const targetOf = (values: Pick<LinkFormValues, 'originalUrl' | 'utm'>): string =>
  withUtm(urlToSend(values.originalUrl), values.utm);

/** Tags as stored (trimmed, lower-cased, each once), so the field shows what will be saved. */
export const normalizedTags = (tags: readonly string[]): string[] => [
  ...new Set(tags.map(normalizeTag).filter((tag) => tag !== '')),
];

const capitalised = (rule: string) => rule.charAt(0).toUpperCase() + rule.slice(1);

/** Each control's problem as typed, or null; said on its field before anything is sent. */
export const controlRules = {
  password: (password: string, action: PasswordAction) => {
    if (action !== 'change' || password === '') return null;
    return password.length > MAX_LINK_PASSWORD_LENGTH || password.trim() === ''
      ? capitalised(LINK_PASSWORD_RULE)
      : null;
  },
  expiresAt: (picked: string | null, now = new Date()) =>
    picked !== null && new Date(picked.replace(' ', 'T')).getTime() <= now.getTime()
      ? 'Pick a time in the future'
      : null,
  maxClicks: (limit: number | string) => {
    if (limit === '') return null;
    const clicks = Number(limit);
    return Number.isInteger(clicks) && clicks >= 1 && clicks <= MAX_CLICK_LIMIT
      ? null
      : `A whole number from 1 to ${MAX_CLICK_LIMIT.toLocaleString('en-US')}`;
  },
  fallbackUrl: (url: string) => (url.trim() === '' ? null : typedUrlProblem(url)),
  tags: (tags: string[]) => {
    const checked = checkTags(tags);
    return checked.ok ? null : capitalised(checked.problem);
  },
  ruleConditions: (conditions: readonly RuleConditionValues[]) => {
    const checked = checkTargetingWhen(whenOf(conditions));
    return checked.ok ? null : capitalised(checked.problem);
  },
  ruleUrl: (url: string) => typedUrlProblem(url),
};

/** The controls' rules as `@mantine/form` calls them (value, values). */
export const controlValidation = {
  password: (password: string, values: LinkFormValues) =>
    controlRules.password(password, values.passwordAction),
  expiresAt: (picked: string | null) => controlRules.expiresAt(picked),
  maxClicks: controlRules.maxClicks,
  fallbackUrl: controlRules.fallbackUrl,
  tags: controlRules.tags,
  rules: { conditions: controlRules.ruleConditions, url: controlRules.ruleUrl },
};

/**
 * What the folded "More options" hold, in a few words ("UTM parameters, password, 2 tags"), so that a
 * person who folds them away still sees what the link will carry; empty when they hold nothing.
 */
export function optionsSummary(values: LinkFormValues): string {
  const held = [
    hasUtm(values.utm) && 'UTM parameters',
    (values.passwordAction === 'keep' || values.password !== '') && 'password',
    values.expiresAt !== null && 'expiry',
    values.maxClicks !== '' && 'click limit',
    values.fallbackUrl.trim() !== '' && 'fallback URL',
    values.paused && 'paused',
    values.tags.length > 0 && `${values.tags.length} ${values.tags.length === 1 ? 'tag' : 'tags'}`,
    values.rules.length > 0 && targetingRulesText(values.rules.length),
  ].filter((part): part is string => part !== false);
  return held.join(', ');
}

/** "1 targeting rule", "3 targeting rules": the summary's and the link card's words. */
export const targetingRulesText = (count: number): string =>
  `${count} targeting ${count === 1 ? 'rule' : 'rules'}`;

/** A new link's controls: only those set, so a plain link is sent as before. */
export function createControls(
  values: LinkFormValues,
): Omit<CreateLinkBody, 'originalUrl' | 'title' | 'shortCode'> {
  return {
    ...(values.password !== '' ? { password: values.password } : {}),
    ...(values.expiresAt ? { expiresAt: instantOf(values.expiresAt) } : {}),
    ...(values.maxClicks !== '' ? { maxClicks: Number(values.maxClicks) } : {}),
    ...(values.fallbackUrl.trim() !== '' ? { fallbackUrl: urlToSend(values.fallbackUrl) } : {}),
    ...(values.paused ? { paused: true } : {}),
    ...(values.tags.length > 0 ? { tags: normalizedTags(values.tags) } : {}),
    ...(values.rules.length > 0 ? { rules: rulesToSend(values.rules) } : {}),
  };
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, index) => tag === b[index]);

/** An edit's controls: only those changed (absent is unchanged for the API), null for one cleared. */
export function editControls(
  values: LinkFormValues,
  link: Link,
): Omit<UpdateLinkBody, 'originalUrl' | 'title' | 'shortCode'> {
  const controls: Omit<UpdateLinkBody, 'originalUrl' | 'title' | 'shortCode'> = {};
  if (values.passwordAction === 'remove') controls.password = null;
  else if (values.passwordAction === 'change' && values.password !== '') controls.password = values.password;
  // Compared as the picker holds them (to the second), so an untouched expiry is not sent again.
  if ((values.expiresAt ?? null) !== (link.expiresAt === null ? null : pickerTime(link.expiresAt)))
    controls.expiresAt = values.expiresAt ? instantOf(values.expiresAt) : null;
  const maxClicks = values.maxClicks === '' ? null : Number(values.maxClicks);
  if (maxClicks !== link.maxClicks) controls.maxClicks = maxClicks;
  const fallbackUrl = values.fallbackUrl.trim() === '' ? null : urlToSend(values.fallbackUrl);
  if (fallbackUrl !== link.fallbackUrl) controls.fallbackUrl = fallbackUrl;
  if (values.paused !== link.paused) controls.paused = values.paused;
  const tags = normalizedTags(values.tags);
  if (!sameTags(tags, link.tags)) controls.tags = tags;
  const rules = rulesToSend(values.rules);
  if (JSON.stringify(rules) !== JSON.stringify(link.rules)) controls.rules = rules;
  return controls;
}

/** The controls' fields, for the server's refusals to land on (its words begin with the field's name). */
const controlFields = ['password', 'expiresAt', 'maxClicks', 'fallbackUrl', 'tags'] as const;

/** "expiresAt must be in the future" on the Expires field reads "Must be in the future". */
export function onFieldWords(field: string, message: string): string {
  const named = new RegExp(`^${field}:? `);
  return named.test(message) ? capitalised(message.replace(named, '')) : message;
}

/** The create form's and the edit dialog's fields the server may name in a refusal. */
const linkFormFields = ['originalUrl', 'title', 'shortCode', ...controlFields] as const;
/** A rule's fields as the form names them (`rules.1.url`), and the rules as a whole (too many). */
type RuleField = 'rules' | `rules.${number}.${'url' | 'conditions'}`;
export type LinkFormField = (typeof linkFormFields)[number] | RuleField;

/**
 * A refusal of a targeting rule, on the rule's field: the server names a rule's URL `rules[1].url`, its
 * conditions `rules.1.when`, the list `rules`.
 */
function ruleFieldProblem(error: unknown): { field: RuleField; message: string } | undefined {
  if (!(error instanceof ApiError) || error.field === undefined) return undefined;
  const named = /^rules(?:\[(\d+)\]|\.(\d+))?(?:\.(url|when))?/.exec(error.field);
  if (!named) return undefined;
  const index = named[1] ?? named[2];
  const message = capitalised((error.serverMessage ?? 'Please check this rule').replace(/^rules\S*:? /, ''));
  if (index === undefined) return { field: 'rules', message };
  return { field: `rules.${Number(index)}.${named[3] === 'url' ? 'url' : 'conditions'}`, message };
}

/** A refusal of one of the link form's fields, in words for that field (its name is the label already). */
export function linkFieldProblem(error: unknown): { field: LinkFormField; message: string } | undefined {
  const rule = ruleFieldProblem(error);
  if (rule) return rule;
  const problem = fieldProblemOf(error, linkFormFields);
  if (!problem || !(controlFields as readonly string[]).includes(problem.field)) return problem;
  return { field: problem.field, message: onFieldWords(problem.field, problem.message) };
}
