/**
 * `npm run user:plan -- <email> monthly|yearly|free`: makes an account Pro on a plan, or takes that back,
 * without payments (for operators, and for tests). An operator's grant, on the user's stream, apart from
 * what the user pays for (the billing stream): `free` ends the grant, never a paid subscription.
 */
import { runAccountCli } from './run-cli';

const PLANS = ['monthly', 'yearly', 'free'] as const;
type Plan = (typeof PLANS)[number];

const isPlan = (value: string | undefined): value is Plan => PLANS.includes(value as Plan);

runAccountCli({
  usage: 'npm run user:plan -- <email> monthly|yearly|free',
  parse: ([plan, ...extra]) => (isPlan(plan) && extra.length === 0 ? plan : null),
  run: async (accounts, { userId, email }, plan) => {
    await accounts.setPlan(userId, plan, 'operator');
    return `${email} is now on the ${plan} plan`;
  },
});
