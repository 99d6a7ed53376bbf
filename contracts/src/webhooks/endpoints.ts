import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  createdWebhookSchema,
  createWebhookBody,
  deletedWebhookSchema,
  webhookAttemptSchema,
  webhookSchema,
  webhookTestSentSchema,
} from './api';

/** The signed-in user's webhooks (Profile): managed with a session only, never with an API key. */
export const webhookEndpoints = {
  listWebhooks: endpoint('GET /api/webhooks', { 200: z.array(webhookSchema) }),
  createWebhook: endpoint('POST /api/webhooks', { 201: createdWebhookSchema }, { body: createWebhookBody }),
  deleteWebhook: endpoint('DELETE /api/webhooks/:id', { 200: deletedWebhookSchema }),
  rotateWebhookSecret: endpoint('POST /api/webhooks/:id/secret', { 200: createdWebhookSchema }),
  sendWebhookTest: endpoint('POST /api/webhooks/:id/test', { 202: webhookTestSentSchema }),
  webhookDeliveries: endpoint('GET /api/webhooks/:id/deliveries', { 200: z.array(webhookAttemptSchema) }),
};
