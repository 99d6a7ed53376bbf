import type { AdminDocFields } from '@sniplink/contracts/admin-docs/api';

/** A doc of the starter set, under a name of its own (its id is made from it, the same in every seed). */
export interface StarterDoc extends AdminDocFields {
  name: string;
}

/**
 * The docs `POST /api/admin/docs/seed` adds: how each part of the console works and what to do in the
 * usual cases, two or three per section. Each states the product's rules as the app applies them. Their
 * sort orders follow the console's tabs (Users 1xx, Support 2xx, SEO 3xx, Config 4xx, Moderate 5xx,
 * Premium 6xx), so the list of every section reads tab by tab, and an admin's own doc (0 by default)
 * comes first.
 */
export const starterDocs: readonly StarterDoc[] = [
  {
    name: 'users/the-users-tab',
    section: 'users',
    sortOrder: 110,
    title: 'The Users tab',
    content: `## Finding a user

- **Search** matches part of the e-mail address or of the full name ("first last"), ignoring case. Newest accounts come first; erased accounts are not listed.
- **Export** downloads every user the search matches as a CSV file.
- **View** opens the user's details: plan, links created this month, links held, join date, the admin switch, Suspend / Unsuspend, and the **History** of every admin action on that account.

## Plans

The badge shows **Monthly**, **Yearly** or **Free**. A suspended account shows as suspended whatever its plan.`,
  },
  {
    name: 'users/suspending-a-user',
    section: 'users',
    sortOrder: 120,
    title: 'Suspending a user',
    content: `Suspend an account that breaks the terms (spam, phishing, abuse of the short links).

1. Open **Users**, search for the address, and click **View**.
2. Click **Suspend**. The change is recorded in the user's History with your address.

What happens at once:

- every session of the account ends, and signing in is refused until you unsuspend;
- its short links answer *This link is unavailable* instead of redirecting, and those visits are not counted;
- the plan is kept: **Unsuspend** gives the user back exactly the plan they had.

To undo, open the user again and click **Unsuspend**.`,
  },
  {
    name: 'users/admin-privileges',
    section: 'users',
    sortOrder: 130,
    title: 'Granting and removing admin privileges',
    content: `- The **Admin privileges** switch in a user's View dialog grants or removes access to this console.
- At least one admin always remains: removing the flag from the last admin is refused.
- Addresses listed in the server's \`ADMIN_EMAILS\` become admins when they sign up; an operator can also run \`npm run user:admin -- <email>\` on the server.
- Every grant and removal appears in the user's History and in the audit history.`,
  },
  {
    name: 'support/handling-tickets',
    section: 'support',
    sortOrder: 210,
    title: 'Handling a support ticket',
    content: `Users open tickets from the Support Center on their dashboard. The Support tab shows the counts of open, in-progress and resolved tickets, urgent ones first.

1. **Assign to me** takes the ticket: an open ticket becomes *in progress*.
2. Reply from the ticket's conversation. The user sees the reply from *Support Team* and is mailed it; an open ticket becomes *in progress*.
3. **Resolve** once it is answered. A resolved ticket closes by itself 7 days later, unless the user replies, which reopens it.
4. A closed ticket takes no more replies: the user opens a new one.`,
  },
  {
    name: 'support/urgent-tickets',
    section: 'support',
    sortOrder: 220,
    title: 'Urgent tickets',
    content: `- Every admin is mailed about **urgent** tickets, at most once every 10 minutes: the first urgent ticket is mailed at once, and those that follow within the 10 minutes come together in the next mail.
- Answer urgent tickets first: they head the list.
- Ticket subjects and messages are the user's personal data: do not copy them elsewhere. When an account is erased, its tickets can no longer be read.`,
  },
  {
    name: 'seo/page-settings',
    section: 'seo',
    sortOrder: 310,
    title: 'SEO settings for the public pages',
    content: `The SEO tab covers the nine public pages: landing \`/\`, home \`/home\`, subscribe \`/subscribe\`, marketplace \`/marketplace\`, about \`/about\`, privacy \`/privacy\`, terms \`/terms\`, contact \`/contact\` and help \`/help\`.

Guidance (not enforced):

- **Title**: 50-60 characters, the page's subject first.
- **Description**: 150-160 characters; it is the snippet under the title in search results.
- **Keywords**: comma-separated.
- **Open Graph image**: 1200 x 630 pixels, for link previews on social sites.

The editor shows a live search-result preview and a social-share preview: check both before saving. A page shows **Needs Setup** until its settings are filled in.`,
  },
  {
    name: 'seo/page-copy',
    section: 'seo',
    sortOrder: 320,
    title: 'Updating the page copy',
    content: `The text of the informational pages (privacy, terms, about, contact and help) is written in markdown in the **Update Page Copy** editor, under each of these pages' SEO settings (SEO tab, then the page). Each page shows its built-in text until a first version is published.

1. Write in **Edit**; check the result in **Preview**. The word count, characters and reading time (200 words a minute) are shown.
2. **Save Draft** keeps your changes without publishing them.
3. **Publish** makes the page live. It needs a title and content, and is offered while the draft differs from the published version.
4. **Publishing Settings** shows where the page stands and every version published.`,
  },
  {
    name: 'config/the-config-tab',
    section: 'config',
    sortOrder: 410,
    title: 'What the Config tab changes',
    content: `The Config tab is a key-value table. Some keys are read by the app and take effect **at once, in every process, without a restart**:

| Key | Sets |
| --- | --- |
| \`links.free_limit\` | Links a Free account may hold |
| \`links.pro_monthly_limit\` | Links a Pro account may create per calendar month (UTC) |
| \`demo.links_per_visitor\` | Demo links one visitor may make per 24 hours |
| \`premium.slug_price_cents\` | Price of a premium slug, in cents |
| \`premium.max_owned_slugs\` | Premium slugs one account may own |

These take a whole number within their range; anything else is refused with the reason. The table above the entries shows the value in force for each and its default.

Any other key is kept as text, for your own notes.`,
  },
  {
    name: 'config/changing-an-entry',
    section: 'config',
    sortOrder: 420,
    title: 'Adding, editing and deleting entries',
    content: `- **Add Entry** needs a key and a value. A key is 1-64 characters: lower-case letters, digits, \`_\`, \`.\` or \`-\`.
- While editing, the key is read-only: to rename, add the new key and delete the old one.
- **Delete** asks for confirmation. Deleting a known key puts the app back on its default at once.
- Every change is in the audit history with the old value.`,
  },
  {
    name: 'moderation/the-lists',
    section: 'moderation',
    sortOrder: 510,
    title: 'Prohibited words and protected brands',
    content: `The Moderate tab keeps the lists every new short code is checked against. A change applies to the next code claimed, in every process, without a restart; codes claimed before are unchanged.

## How codes are matched

- Case, hyphens and underscores are ignored, and look-alike characters count as letters: 0 as o, 1 as i or l, 3 as e, 4 as a, 5 as s, 7 as t, @ as a, $ as s.
- An entry of 4 letters or more is found anywhere inside a code; a shorter one only as the whole code or a whole part of it.

## Prohibited Words

- A code containing an active prohibited word is refused.
- A word has a category (**offensive**, **spam** or **inappropriate**) and a severity (**low**, **medium**, **high** or **critical**); new words default to offensive, medium.
- Switch a word off rather than deleting it when you may want it back: an inactive word is ignored.

## Protected Brands

- A brand has a category: tech (the default), media, retail, food, automotive, finance or government.
- With **requires approval** on (the default), a custom code containing the brand is taken but does not redirect until an admin approves it in **Approvals**. With it off, such a code is refused.
- A generated code or a premium slug containing any active brand is always refused.`,
  },
  {
    name: 'moderation/approvals',
    section: 'moderation',
    sortOrder: 520,
    title: 'Reviewing slug approvals',
    content: `**Approvals** lists the custom codes that contain a protected brand, pending ones oldest first.

- **Approve** when the user plainly has the right to the name (their own company, a fan page that says so). The code redirects from then on.
- **Reject** otherwise. The link gets a generated code instead, the refused code is free again, and the owner is told on their dashboard and by mail, with the reason *Brand protection violation*.
- Only pending approvals can be approved or rejected; decided ones stay listed for the record.`,
  },
  {
    name: 'premium/the-catalogue',
    section: 'premium',
    sortOrder: 610,
    title: 'The premium slug catalogue',
    content: `Premium slugs are short codes sold once (\`/s/{slug}\`) to Pro users. The Premium tab lists the catalogue 25 to a page, with filters for category, tier and availability.

- **Add** takes the slug (trimmed and lower-cased), category, tier and a price in dollars (stored in cents). The default price is $25.
- **Bulk Add** takes one slug per line with a shared category, price and tier.
- A slug shares its namespace with links: one already held by a link, or already in the catalogue, is refused.
- **Delete** asks for confirmation and is refused for a slug someone owns.
- A buyer may own at most 3 premium slugs (the \`premium.max_owned_slugs\` config key).`,
  },
  {
    name: 'premium/seeding-slugs',
    section: 'premium',
    sortOrder: 620,
    title: 'Seeding premium slugs',
    content: `**Seed** (after a confirmation) adds the built-in catalogue: about thirty slugs across the seven categories (ultra-short, common words, commerce, time and urgency, lifestyle and status, tech terms, number patterns), priced at the \`premium.slug_price_cents\` setting.

- Slugs already in the catalogue, or held by a link, are skipped: the toast says how many were created and how many already existed.
- Seeding again is safe: a second seed creates none.
- Change prices afterwards with **Edit**, one slug at a time.`,
  },
];
