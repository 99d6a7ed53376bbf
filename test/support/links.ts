import type { Link } from '@sniplink/contracts';

/**
 * What the link JSON says of a link with none of its owner's controls and no code in review: the fields
 * beside id, title, target, code and clicks, as a test expects them of a plain link.
 */
export const noLinkControls = {
  hasPassword: false,
  expiresAt: null,
  maxClicks: null,
  clicksUsed: null,
  fallbackUrl: null,
  paused: false,
  tags: [],
  rules: [],
  status: 'active',
  pendingApproval: false,
} as const satisfies Partial<Link>;
