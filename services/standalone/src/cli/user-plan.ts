/**
 * `npm run user:plan -- <email> monthly|yearly|free`: makes an account Pro on a plan, or Free, without
 * payments (for operators, and for tests until payments exist). Appends the same subscription events the
 * payments provider will.
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
