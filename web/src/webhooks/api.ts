import { type CreateWebhookBody, webhookEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { listWebhooks, createWebhook, deleteWebhook, sendWebhookTest, webhookDeliveries } = webhookEndpoints;
const HOOKS = listWebhooks.path;

/** The signed-in user's webhooks, newest first (never their secrets). */
export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: [HOOKS] as const,
    queryFn: ({ signal }) => call(listWebhooks, {}, { signal }),
  });

/** One webhook's delivery log, newest first; asked again while it is open, as deliveries come in. */
export const webhookDeliveriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [webhookDeliveries.path, id] as const,
    queryFn: ({ signal }) => call(webhookDeliveries, { params: { id } }, { signal }),
    refetchInterval: 2_000,
    staleTime: 0,
  });

/** Makes a webhook; the answer holds its signing secret, shown once. */
export const useCreateWebhook = () =>
  useRefreshingMutation((body: CreateWebhookBody) => call(createWebhook, { body }), [[HOOKS]]);

export const useDeleteWebhook = () =>
  useRefreshingMutation((id: string) => call(deleteWebhook, { params: { id } }), [[HOOKS]]);

export const useSendWebhookTest = (id: string) =>
  useRefreshingMutation(() => call(sendWebhookTest, { params: { id } }), [[webhookDeliveries.path, id]]);
