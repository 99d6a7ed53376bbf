/**
 * The web app's pages as a search engine sees them: the title the browser tab shows (the web app's
 * `<PageTitle>`) and what the server writes into the HTML it serves for each path (`services/api/src/web.ts`),
 * so that a crawler without JavaScript reads the same title and description as a visitor.
 * Plain data, importing only the allowances' words (themselves without imports): the server and the web
 * build both import it. The description names the built-in allowances, as it is written before any setting
 * is read.
 */
import { FREE_LINK_LIMIT, linkAllowanceText, PRO_MONTHLY_LINK_LIMIT } from './links/limits';

export const brandName = 'Sniplink';

/** Whether search engines may list the page: public pages yes, signed-in pages and "not found" no. */
export type PageIndexing = 'index' | 'noindex';

export interface PageMeta {
  /** The page's own title; the document title is `documentTitle(title)`. */
  title: string;
  /** The meta and Open Graph description; informational pages also show it as their intro. */
  description: string;
  indexing: PageIndexing;
}

const tagline = 'Simple link tracking for local businesses and creators.';

/** Every path the web app renders as a page. */
export const pages = {
  '/': {
    title: 'Professional URL Shortening',
    description: `${tagline} Short links you can share anywhere, and the clicks behind them: Free holds ${linkAllowanceText('lifetime', FREE_LINK_LIMIT)}, Pro creates ${linkAllowanceText('month', PRO_MONTHLY_LINK_LIMIT)} for $2.`,
    indexing: 'index',
  },
  '/about': {
    title: `About ${brandName}`,
    description:
      'Sniplink turns long web addresses into short links and tells you how often, from where and on what device they are opened.',
    indexing: 'index',
  },
  '/privacy': {
    title: 'Privacy',
    description:
      'What Sniplink keeps about you and about the people who open your links, and what it never keeps.',
    indexing: 'index',
  },
  '/terms': {
    title: 'Terms of Use',
    description: 'The short version of the rules for using Sniplink on this site.',
    indexing: 'index',
  },
  '/contact': {
    title: 'Contact',
    description: 'How to reach the people who run this Sniplink site.',
    indexing: 'index',
  },
  '/help': {
    title: 'Help',
    description: 'Answers to the questions people ask most about Sniplink.',
    indexing: 'index',
  },
  '/login': {
    title: 'Sign In',
    description: 'Sign in to Sniplink, or create a free account to track your links.',
    indexing: 'index',
  },
  '/forgot-password': {
    title: 'Reset Password',
    description:
      "Enter your account's e-mail address and Sniplink sends you a link to choose a new password.",
    indexing: 'index',
  },
  '/reset-password': {
    title: 'Choose a New Password',
    description: 'Choose a new password for your Sniplink account.',
    indexing: 'noindex',
  },
  '/subscribe': {
    title: 'Choose Your Plan',
    description:
      'Sniplink Pro: 500 trackable links a month for $2/month, or $20/year (two months free). Cancel anytime.',
    indexing: 'index',
  },
  '/marketplace': {
    title: 'Premium Slugs Marketplace',
    description:
      'Short, memorable premium short codes for your links: a one-time purchase of $25 for Sniplink Pro members, at most 3 per account.',
    indexing: 'index',
  },
  '/premium/checkout/{slugId}': {
    title: 'Premium Slug Checkout',
    description: 'Buy a premium slug: a one-time payment of $25 for Sniplink Pro members.',
    indexing: 'noindex',
  },
  '/premium/success': { title: 'Purchase Complete', description: tagline, indexing: 'noindex' },
  '/home': { title: 'Your Dashboard', description: tagline, indexing: 'noindex' },
  '/profile': { title: 'Profile Settings', description: tagline, indexing: 'noindex' },
  '/onboarding': { title: "Welcome, let's get you started", description: tagline, indexing: 'noindex' },
  '/admin': { title: 'Admin Panel', description: tagline, indexing: 'noindex' },
} as const satisfies Record<string, PageMeta>;

export type PagePath = keyof typeof pages;

/** Any other path ("Page Not Found"), answered with status 404. */
export const notFoundPage = {
  title: 'Page Not Found',
  description: 'There is no page at this address.',
  indexing: 'noindex',
} as const satisfies PageMeta;

export function isPagePath(pathname: string): pathname is PagePath {
  return Object.hasOwn(pages, pathname);
}

/** Pages whose path has a parameter: the pattern each path of theirs matches. */
const parameterisedPages: readonly [RegExp, PagePath][] = [
  [/^\/premium\/checkout\/[^/]+$/, '/premium/checkout/{slugId}'],
];

/** The page a path shows (`/premium/checkout/abc` is `/premium/checkout/{slugId}`), or undefined. */
export function pageOf(pathname: string): PagePath | undefined {
  if (isPagePath(pathname)) return pathname;
  return parameterisedPages.find(([pattern]) => pattern.test(pathname))?.[1];
}

/** "{page title} | Sniplink", as the browser tab and search results show it. */
export function documentTitle(title: string): string {
  return `${title} | ${brandName}`;
}
