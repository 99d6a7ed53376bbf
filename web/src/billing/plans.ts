import { PLAN_PRICES } from '@sniplink/contracts';

const dollars = (cents: number) => `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;

/** Pro's prices as the pages write them: $2/month, or $20/year instead of $24. */
export const planPrices = {
  monthly: dollars(PLAN_PRICES.monthly.cents),
  yearly: dollars(PLAN_PRICES.yearly.cents),
  yearlyList: dollars(PLAN_PRICES.yearly.listCents),
  yearlySaving: dollars(PLAN_PRICES.yearly.listCents - PLAN_PRICES.yearly.cents),
};

/** What both plans include. */
export const planFeatures = [
  'Track links',
  'See click numbers',
  'Share anywhere',
  'Export data',
  'Mobile use',
];
