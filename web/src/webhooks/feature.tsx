import type { Feature } from '../features';
import { DisabledWebhooksNotice } from './DisabledWebhooksNotice';

/** Webhooks: their card is in Profile (beside the API keys); the home tells of a disabled one. */
export const webhooksFeature: Feature = {
  dashboardCards: [{ key: 'disabled-webhooks', order: 27, render: () => <DisabledWebhooksNotice /> }],
};
