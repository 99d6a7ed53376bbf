import type { Feature } from '../features';
import { PaymentFailedAlert } from './PaymentFailedAlert';

/** The failed-payment warning at the top of the home. */
export const billingFeature: Feature = {
  dashboardCards: [
    { key: 'payment-failed', order: 30, render: ({ user }) => <PaymentFailedAlert billing={user.billing} /> },
  ],
};
