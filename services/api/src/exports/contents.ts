import type { Link, Ticket, TicketMessage, User } from '@sniplink/contracts';
import { toCsv } from '../analytics/csv';

/** Where an export reads the user's data from: the same services the user's own screens read. */
export interface ExportSources {
  profile(userId: string): Promise<User>;
  /** Every live link of the user, with its tags and controls (a password only as `hasPassword`). */
  links(userId: string): Promise<Link[]>;
  dailyClicks(linkIds: readonly string[]): Promise<{ linkId: string; date: string; clicks: number }[]>;
  tickets(userId: string): Promise<Ticket[]>;
  messages(userId: string, ticketId: string): Promise<TicketMessage[]>;
}

/** One file of the ZIP. */
export interface ExportFile {
  name: string;
  text: string;
}

const json = (name: string, value: unknown): ExportFile => ({
  name,
  text: `${JSON.stringify(value, null, 2)}\n`,
});

/** The profile as the Profile page shows it, without the figures that only describe this month. */
export function profileFiles(user: User): ExportFile[] {
  const profile = {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    emailVerified: user.emailVerified,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionPlan: user.subscriptionPlan,
    createdAt: user.createdAt,
  };
  const columns = Object.keys(profile) as (keyof typeof profile)[];
  return [
    json('profile.json', profile),
    {
      name: 'profile.csv',
      text: toCsv(columns, [columns.map((column) => cell(profile[column]))]),
    },
  ];
}

/** The links with their tags and controls; the CSV writes tags space-separated and the rules as JSON. */
export function linkFiles(links: readonly Link[]): ExportFile[] {
  const rows = links.map((link) => [
    link.id,
    link.shortCode,
    link.shortUrl,
    link.originalUrl,
    link.title ?? '',
    link.createdAt,
    link.clickCount,
    link.status,
    link.tags.join(' '),
    String(link.hasPassword),
    link.expiresAt ?? '',
    cell(link.maxClicks),
    link.fallbackUrl ?? '',
    String(link.paused),
    link.rules.length > 0 ? JSON.stringify(link.rules) : '',
  ]);
  const header = [
    'Id',
    'Short Code',
    'Short URL',
    'Original URL',
    'Title',
    'Created',
    'Clicks',
    'Status',
    'Tags',
    'Has Password',
    'Expires',
    'Click Limit',
    'Fallback URL',
    'Paused',
    'Targeting Rules',
  ];
  return [json('links.json', links), { name: 'links.csv', text: toCsv(header, rows) }];
}

export interface DailyClicks {
  linkId: string;
  shortCode: string;
  date: string;
  clicks: number;
}

/** Human clicks per link per UTC day, days without clicks left out. */
export function clickFiles(days: readonly DailyClicks[]): ExportFile[] {
  return [
    json('daily-clicks.json', days),
    {
      name: 'daily-clicks.csv',
      text: toCsv(
        ['Link Id', 'Short Code', 'Date', 'Clicks'],
        days.map((day) => [day.linkId, day.shortCode, day.date, day.clicks]),
      ),
    },
  ];
}

export type TicketWithMessages = Ticket & { messages: TicketMessage[] };

/** The tickets with their conversations: one CSV of tickets and one of their messages. */
export function ticketFiles(tickets: readonly TicketWithMessages[]): ExportFile[] {
  return [
    json('tickets.json', tickets),
    {
      name: 'tickets.csv',
      text: toCsv(
        ['Id', 'Subject', 'Message', 'Priority', 'Status', 'Created', 'Updated'],
        tickets.map((t) => [t.id, t.subject, t.message, t.priority, t.status, t.createdAt, t.updatedAt]),
      ),
    },
    {
      name: 'ticket-messages.csv',
      text: toCsv(
        ['Ticket Id', 'Message Id', 'From', 'Message', 'Created'],
        tickets.flatMap((t) =>
          t.messages.map((m) => [t.id, m.id, m.isFromAdmin ? 'support' : 'you', m.message, m.createdAt]),
        ),
      ),
    },
  ];
}

const cell = (value: string | number | boolean | null): string | number =>
  value === null ? '' : typeof value === 'boolean' ? String(value) : value;
