/**
 * The container build and the distributed deployment (deploy/Dockerfile, compose.yaml), checked where no
 * Docker engine runs: what would only show at `docker compose up`, as a failed build or a process that
 * refuses to start, shows here. That the images build and the services start was not run here
 * (docs/scale-out.md, "What was run here and what was not").
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@sniplink/platform';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  build?: { dockerfile?: string };
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
}
const compose: { services: Record<string, ComposeService> } = parse(read('compose.yaml'), { merge: true });
/** The services that run Sniplink itself (built from deploy/Dockerfile). */
const appServices = Object.entries(compose.services).filter(
  ([, service]) => service.build?.dockerfile === 'deploy/Dockerfile',
);

/** Compose's interpolation as far as compose.yaml uses it: `${NAME}`, `${NAME:-default}`. */
function interpolate(value: string | number, env: Record<string, string>): string {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_, name: string, fallback = '') =>
    env[name] ? env[name] : fallback,
  );
}
const environment = (service: ComposeService, env: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(value, env)]),
  );

/** The variables the app reads, as docs/configuration.md's table lists them (written from config.ts). */
function documentedVariables(): Set<string> {
  const rows = read('docs/configuration.md')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Set(
    rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''),
    ),
  );
}

describe('deploy/Dockerfile', () => {
  const dockerfile = read('deploy/Dockerfile');
  const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+)$/gm)].map((m) => (m[1] ?? '').split(/\s+/));
  const workspaces: string[] = JSON.parse(read('package.json')).workspaces;

  it("copies every workspace's package.json before npm ci, in both stages (else npm ci refuses the lockfile)", () => {
    const manifests = new Set(
      copies.flatMap((args) => args.slice(0, -1)).filter((file) => file.endsWith('/package.json')),
    );
    const perStage = dockerfile.split(/^FROM /m).slice(1);
    expect(perStage).toHaveLength(2);
    for (const stage of perStage) {
      const copied = [...manifests].filter((file) => stage.includes(`COPY ${file} `));
      expect(copied.map((file) => path.dirname(file)).sort()).toEqual([...workspaces].sort());
    }
  });

  it('copies only paths that exist', () => {
    const sources = copies.flatMap((args) => args.slice(0, -1)).filter((file) => file !== '.');
    expect(sources.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it('runs bundles that scripts/build-server.mjs builds: the app, and in compose.yaml the redirect', () => {
    const commands = [dockerfile, ...(compose.services.redirect?.command ?? [])].join('\n');
    const bundles = [...commands.matchAll(/services\/standalone\/dist\/([a-z-]+)\.mjs/g)].map((m) => m[1]);
    expect(new Set(bundles)).toEqual(new Set(['main', 'redirect-main']));
    for (const bundle of bundles) {
      expect(read('scripts/build-server.mjs')).toContain(`'${bundle}'`);
      expect(existsSync(path.join(root, `services/standalone/src/${bundle}.ts`))).toBe(true);
    }
  });
});

describe('deploy/env.example', () => {
  it('lists every variable the app reads, and no other', () => {
    const listed = read('deploy/env.example')
      .split('\n')
      .map((line) => /^(?:# ?)?([A-Z][A-Z0-9_]+)=/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(new Set(listed)).toEqual(documentedVariables());
  });
});

describe('compose.yaml', () => {
  it('runs two api, two redirect and two projections processes of the image', () => {
    const replicas = Object.fromEntries(
      appServices.map(([name, service]) => [
        name,
        (service as { deploy?: { replicas?: number } }).deploy?.replicas,
      ]),
    );
    expect(replicas).toEqual({ api: 2, projections: 2, redirect: 2 });
    expect(compose.services.redirect?.command).toContain('services/standalone/dist/redirect-main.mjs');
    expect(environment(compose.services.api ?? {}).PROJECTIONS).toBe('off');
    expect(environment(compose.services.projections ?? {}).PROJECTIONS).toBe('on');
  });

  it('sets only variables the app reads (docs/configuration.md)', () => {
    const known = documentedVariables();
    expect(known.size).toBeGreaterThan(30);
    for (const [name, service] of appServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !known.has(variable));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
  });

  it.each([
    ['EventStoreDB and Kafka (the default)', {}, { kind: 'eventstoredb' }, { kind: 'kafka' }],
    [
      'the event log back in PostgreSQL',
      { EVENT_STORE: 'postgres' },
      { kind: 'postgres' },
      { kind: 'kafka' },
    ],
    [
      'the click log back in PostgreSQL',
      { CLICK_STREAM: 'postgres' },
      { kind: 'eventstoredb' },
      { kind: 'postgres' },
    ],
  ])('gives every process a configuration it starts with: %s', (_, env, eventStore, clickStream) => {
    for (const [, service] of appServices) {
      const config = loadConfig(environment(service, env));
      expect(config).toMatchObject({
        eventStore,
        clickStream,
        databaseUrl: expect.stringMatching(/@postgres:5432\//),
      });
    }
  });

  it('starts a service after what it depends on is healthy, and mounts only files that exist', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in compose.services }).toMatchObject({ exists: true });
        expect(condition).toBe('service_healthy');
        expect({
          dependency,
          healthcheck: compose.services[dependency]?.healthcheck?.test?.length,
        }).toMatchObject({
          healthcheck: expect.any(Number),
        });
      }
      const files = (service.volumes ?? [])
        .map((volume) => volume.split(':')[0] ?? '')
        .filter((source) => source.startsWith('.'));
      expect(files.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
    }
  });
});
