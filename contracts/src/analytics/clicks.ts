import { z } from 'zod';

export const deviceTypes = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceType = (typeof deviceTypes)[number];

/**
 * One redirect, as the click stream carries it (topic `clicks`, keyed by link id). The visitor's IP
 * address is resolved to a country in the redirect and never leaves it.
 */
export interface Click {
  /** Unique per click (the redirecting process's random prefix and a counter): a repeat is dropped. */
  id: string;
  linkId: string;
  /** The code as the visitor typed it. */
  code: string;
  /** Time of the redirect, epoch milliseconds. */
  atMs: number;
  /** ISO 3166-1 alpha-2, or `Unknown`. */
  country: string;
  device: DeviceType;
  /** Browser name (`Chrome`, `Safari`…) or `Unknown`. */
  browser: string;
  /** Operating system name (`Windows`, `iOS`…) or `Unknown`. */
  os: string;
  /** The referring host without `www.`, or `direct`. */
  referrer: string;
  /** Known bots are redirected but not counted as clicks. */
  bot: boolean;
  /** The index of the link's targeting rule that sent the visitor; absent: its main target. */
  rule?: number;
}

/**
 * On the stream a click is a short line keyed by its link id:
 * `c1|id|code|atMs|country|device|browser|os|referrer|bot` (bot `1` or `0`). The redirect writes one per
 * visit and the log keeps every byte of it, so it is a fifth of the JSON object it replaced: PostgreSQL's
 * share of a redirect and the consumer's parse shrink with it (bench/RESULTS.md's
 * earlier sessions, in git history: `git show c47accaf9d08:bench/RESULTS.md`).
 */
const FORMAT = 'c1';
const SEPARATOR = '|';
/** Where a line's id starts: after `c1|`. */
const ID_AT = FORMAT.length + SEPARATOR.length;

export function clickMessage(click: Click): { key: string; value: string } {
  // One flat string: a template literal would build a tree of ~20 string pieces per click, ten times the
  // memory while the click waits in the buffer, flattened again when the batch is serialized. The
  // fields go through one array, filled anew for every click (this runs once per redirect).
  const fields = lineFields;
  fields[0] = FORMAT;
  fields[1] = field(click.id);
  fields[2] = field(click.code);
  fields[3] = click.atMs;
  fields[4] = field(click.country);
  fields[5] = click.device;
  fields[6] = field(click.browser);
  fields[7] = field(click.os);
  // A click a targeting rule sent carries its index as a sixth label field (`r2`), before the bot flag:
  // lines without it, all those written before rules, stay valid and read as the main target.
  fields[8] = click.rule === undefined ? field(click.referrer) : `${field(click.referrer)}|r${click.rule}`;
  fields[9] = click.bot ? 1 : 0;
  return { key: click.linkId, value: fields.join(SEPARATOR) };
}

const lineFields: (string | number)[] = new Array(10).fill('');

/** No field may hold the separator; none of ours does (labels come from fixed names and host names). */
function field(text: string): string {
  return text.includes(SEPARATOR) ? text.replaceAll(SEPARATOR, '/') : text;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEVICES: ReadonlySet<string> = new Set(deviceTypes);

export type ClickLabels = Pick<Click, 'country' | 'device' | 'browser' | 'os' | 'referrer' | 'rule'>;

/**
 * A click line cut at its separators without splitting it apart: the five label fields stay one string
 * (`country|device|browser|os|referrer`), which a link's visitors repeat click after click, so a reader
 * can look them up once (`clickLabels`) instead of taking them apart per click.
 */
export interface ClickLine {
  id: string;
  code: string;
  atMs: number;
  labels: string;
  bot: boolean;
}

/** The parts of a click line, or undefined when it is not one (its labels are checked by `clickLabels`). */
export function readClickLine(value: string): ClickLine | undefined {
  if (!value.startsWith(`${FORMAT}${SEPARATOR}`)) return undefined;
  const idEnd = value.indexOf(SEPARATOR, ID_AT);
  const codeEnd = idEnd === -1 ? -1 : value.indexOf(SEPARATOR, idEnd + 1);
  const atEnd = codeEnd === -1 ? -1 : value.indexOf(SEPARATOR, codeEnd + 1);
  const labelsEnd = value.lastIndexOf(SEPARATOR);
  if (atEnd === -1 || labelsEnd <= atEnd || idEnd === ID_AT || atEnd === codeEnd + 1) return undefined;
  const atMs = Number(value.slice(codeEnd + 1, atEnd));
  const bot = value.slice(labelsEnd + 1);
  if (!Number.isSafeInteger(atMs) || (bot !== '0' && bot !== '1')) return undefined;
  return {
    id: value.slice(ID_AT, idEnd),
    code: value.slice(idEnd + 1, codeEnd),
    atMs,
    labels: value.slice(atEnd + 1, labelsEnd),
    bot: bot === '1',
  };
}

const RULE_FIELD = /^r(\d{1,2})$/;

/**
 * The label fields of a click line, or undefined when they are not five (six with a targeting rule's
 * `r{index}`) or the device is unknown.
 */
export function clickLabels(labels: string): ClickLabels | undefined {
  const fields = labels.split(SEPARATOR);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  const [country, device, browser, os, referrer, ruleField] = fields as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (!DEVICES.has(device)) return undefined;
  if (ruleField === undefined) return { country, device: device as DeviceType, browser, os, referrer };
  const rule = RULE_FIELD.exec(ruleField);
  if (!rule) return undefined;
  return { country, device: device as DeviceType, browser, os, referrer, rule: Number(rule[1]) };
}

/**
 * A click message back into a click: the line above, or a JSON object as the stream carried clicks
 * before it (still in the log after an upgrade). Undefined for anything malformed.
 */
export function readClickMessage(key: string, value: unknown): Click | undefined {
  if (typeof value !== 'string') return fromObject(value);
  const line = readClickLine(value);
  const labels = line && clickLabels(line.labels);
  if (!line || !labels || !isLinkId(key)) return undefined;
  return { id: line.id, linkId: key, code: line.code, atMs: line.atMs, ...labels, bot: line.bot };
}

/** Link ids are UUIDs: anything else as a message key would fail the whole write of a batch. */
export function isLinkId(key: string): boolean {
  return UUID.test(key);
}

/** A click as the stream carried it until the line format: a JSON object with an ISO time. */
const clickObjectSchema = z.object({
  id: z.string().min(1),
  linkId: z.uuid(),
  code: z.string(),
  at: z.string(),
  country: z.string(),
  device: z.enum(deviceTypes),
  browser: z.string(),
  os: z.string(),
  referrer: z.string(),
  bot: z.boolean(),
});

function fromObject(value: unknown): Click | undefined {
  const parsed = clickObjectSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { at, ...click } = parsed.data;
  const atMs = Date.parse(at);
  return Number.isNaN(atMs) ? undefined : { ...click, atMs };
}
