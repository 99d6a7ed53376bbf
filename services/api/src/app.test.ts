import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@sniplink/platform';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';

describe('api: health, readiness and the web app', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let distDir: string;
  let databaseUp = true;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    distDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(
      path.join(distDir, 'index.html'),
      '<!doctype html><title>Sniplink</title><div id="root"></div>',
    );
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = await buildApp({
      log: createLogger('silent'),
      webDistDir: distDir,
      allowedOrigins: ['http://localhost:3000'],
      readiness: {
        database: async () => {
          if (!databaseUp) throw new Error('database unreachable');
          await database.pool.query('SELECT 1');
          return { ok: true };
        },
        slowThing: async () => ({ ok: true }),
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    await rm(distDir, { recursive: true, force: true });
  });

  it('answers /healthz while the process lives', async () => {
    const response = await app.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 with every check when all pass, 503 naming the failing one otherwise', async () => {
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ok',
      checks: { database: { ok: true }, slowThing: { ok: true } },
    });
    databaseUp = false;
    const degraded = await app.inject('/readyz');
    databaseUp = true;
    expect(degraded.statusCode).toBe(503);
    expect(degraded.json()).toMatchObject({
      status: 'degraded',
      checks: { database: { ok: false, error: 'database unreachable' }, slowThing: { ok: true } },
    });
  });

  it('serves the web app at / and its not-found page with 404 elsewhere', async () => {
    const home = await app.inject('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/text\/html/);
    expect(home.body).toContain('<div id="root">');
    const unknown = await app.inject('/no/such/page?x=1');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('<div id="root">');
  });

  it('serves hashed assets cached for a year', async () => {
    const asset = await app.inject('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/nothing', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'No such resource' });
  });
});
