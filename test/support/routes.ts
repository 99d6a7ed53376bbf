import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** In OpenAPI's form: `/api/links/{id}`. */
  path: string;
  schema: (FastifySchema & { hide?: boolean }) | undefined;
}

/**
 * Runs `start` while recording every route the Fastify instances it creates register, with its schema.
 * Fastify announces each new instance on this channel before any route exists, so an `onRoute` hook sees
 * them all.
 */
export async function recordingRoutes<T>(
  start: () => Promise<T>,
): Promise<{ result: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = [];
  const onInstance = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      for (const method of methods) routes.push({ method: method.toLowerCase(), path, schema: route.schema });
    });
  };
  subscribe('fastify.initialization', onInstance);
  try {
    return { result: await start(), routes };
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
}
