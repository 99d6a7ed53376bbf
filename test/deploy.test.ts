/**
 * The container build and the two compose files (deploy/Dockerfile, compose.yaml, deploy/compose.distributed.yaml),
 * checked where no Docker engine runs: what would only show at `docker compose up`, as a failed build, a
 * process that refuses to start, a floating image or a database with a guessable password, shows here.
 * That the images build and the services start was not run here (docs/scale-out.md, "What was run here
 * and what was not").
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@sniplink/platform';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const rootPackage: { version: string; workspaces: string[]; scripts: Record<string, string> } = JSON.parse(
  read('package.json'),
);

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
  volumes?: string[];
  restart?: string;
  stop_grace_period?: string;
  deploy?: { replicas?: number };
}
interface ComposeFile {
  file: string;
  text: string;
  services: Record<string, ComposeService>;
  /** The services that run Sniplink itself: the app's image. */
  app: [string, ComposeService][];
  /** A path in the file, as compose resolves it: relative to the file's folder. */
  resolve: (relative: string) => string;
}
function readCompose(file: string): ComposeFile {
  const text = read(file);
  const { services }: { services: Record<string, ComposeService> } = parse(text, { merge: true });
  return {
    file,
    text,
    services,
    app: Object.entries(services).filter(([, service]) => service.image?.startsWith('sniplink:')),
    resolve: (relative) => path.resolve(root, path.dirname(file), relative),
  };
}
const single = readCompose('compose.yaml');
const distributed = readCompose('deploy/compose.distributed.yaml');

/**
 * Compose's interpolation as far as the files use it: `${NAME}`, `${NAME:-default}`, and `${NAME:?error}`,
 * which stops compose, with that error, when NAME is unset or empty.
 */
function interpolate(value: string | number, env: Record<string, string>): string {
  return String(value).replace(
    /\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (_, name: string, operator?: string, operand = '') => {
      if (env[name]) return env[name];
      if (operator === ':?') throw new Error(`compose: ${name}: ${operand}`);
      return operator === ':-' ? operand : '';
    },
  );
}
const environment = (service: ComposeService, env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(value, env)]),
  );
/** The names a compose file reads from .env or the shell. */
const interpolated = (compose: ComposeFile) =>
  new Set([...compose.text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1] ?? ''));

/** The variables the app reads: the keys of config.ts's environment schema. */
function appVariables(): Set<string> {
  const source = read('services/platform/src/config.ts');
  const start = source.indexOf('const envSchema = z.object({');
  const schema = source.slice(start, source.indexOf('\n});', start));
  return new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1] ?? ''));
}
const known = appVariables();

interface Stage {
  name: string | undefined;
  from: string;
  lines: string[];
}
/** The Dockerfile's stages, each with its instructions (continuation lines joined). */
function dockerStages(): Stage[] {
  const instructions = read('deploy/Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of instructions) {
    const from = /^FROM (\S+)(?: AS (\S+))?$/i.exec(line);
    if (from) stages.push({ from: from[1] ?? '', name: from[2], lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}
const stages = dockerStages();
const finalStage = stages.at(-1) as Stage;
const stageNamed = (name: string) => stages.find((stage) => stage.name === name);
/** A stage and the stages it is built on, nearest first. */
function lineage(stage: Stage): Stage[] {
  const parent = stageNamed(stage.from);
  return parent ? [stage, ...lineage(parent)] : [stage];
}
const runs = (stage: Stage) => stage.lines.filter((line) => line.startsWith('RUN '));
const copiesFrom = (stage: Stage) =>
  stage.lines
    .map((line) => /^COPY --from=(\S+) (\S+) (\S+)$/.exec(line))
    .filter((m) => m !== null)
    .map(([, from, source]) => ({ from: from ?? '', source: source ?? '' }));
/** The image's own environment (ENV in the final stage), under what compose passes. */
const imageEnv: Record<string, string> = Object.fromEntries(
  finalStage.lines
    .filter((line) => line.startsWith('ENV '))
    .flatMap((line) => line.slice(4).trim().split(/\s+/))
    .map((pair) => pair.split('=') as [string, string]),
);
/** The node command a package.json script ends with: its flags and the bundle it runs. */
const nodeCommandOf = (script: string) =>
  (rootPackage.scripts[script]?.split('&&').at(-1) ?? '').trim().split(/\s+/);

describe('deploy/Dockerfile', () => {
  it('installs from a stage holding every workspace package.json (else npm ci refuses the lockfile)', () => {
    const installing = stages.filter((stage) => runs(stage).some((line) => line.includes('npm ci')));
    expect(installing.length).toBeGreaterThan(0);
    for (const stage of installing) {
      const manifests = lineage(stage)
        .flatMap((s) => s.lines)
        .map((line) => /^COPY (\S+)\/package\.json \S+$/.exec(line)?.[1])
        .filter((folder) => folder !== undefined);
      expect({ stage: stage.name, manifests: manifests.sort() }).toEqual({
        stage: stage.name,
        manifests: [...rootPackage.workspaces].sort(),
      });
    }
  });

  it('copies only paths that exist', () => {
    const sources = stages
      .flatMap((stage) => stage.lines)
      .filter((line) => line.startsWith('COPY ') && !line.startsWith('COPY --from'))
      .flatMap((line) => line.split(/\s+/).slice(1, -1))
      .filter((file) => file !== '.');
    expect(sources.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it('runs on one pinned Node minor, the major CI runs', () => {
    const bases = stages.map((stage) => stage.from).filter((from) => !stageNamed(from));
    expect(new Set(bases).size).toBe(1);
    expect(bases[0]).toMatch(/^node:24\.\d+-bookworm-slim$/);
    expect(read('.ci/run')).toMatch(/node-linux-\$\{node_arch\}@24\b/);
  });

  it('ships production dependencies only: the final stage takes node_modules from an --omit=dev install', () => {
    expect(runs(finalStage).filter((line) => /npm (ci|install|i) /.test(line))).toEqual([]);
    const copies = copiesFrom(finalStage).map(({ from, source }) => {
      const stage = stageNamed(from);
      expect(stage, `COPY --from=${from}`).toBeDefined();
      const installs = lineage(stage as Stage)
        .flatMap(runs)
        .filter((line) => line.includes('npm ci'));
      return { source, installs };
    });
    // From a stage with every dependency, the final image takes only what it built.
    for (const { source, installs } of copies) {
      if (installs.some((line) => !line.includes('--omit=dev'))) expect(source).toMatch(/\/dist$/);
    }
    const dependencies = copies.filter(({ source }) => !source.endsWith('/dist'));
    expect(dependencies).toHaveLength(1);
    expect(dependencies[0]?.installs).toEqual([expect.stringContaining('npm ci --omit=dev')]);
  });

  it("runs as an unprivileged user, with npm start's node flags on the built bundle", () => {
    const users = finalStage.lines.filter((line) => line.startsWith('USER '));
    expect(users.at(-1)).toMatch(/^USER (?!root$|0$)\S+$/);
    const cmd = finalStage.lines.find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd?.slice(4) ?? '[]')).toEqual(nodeCommandOf('start'));
  });

  it('imports at run time only packages the production install has', async () => {
    // The bundles as scripts/build-server.mjs makes them: workspaces inlined, every other package
    // imported from node_modules at run time.
    const entries = [...read('scripts/build-server.mjs').matchAll(/const entries = \[([^\]]+)\]/g)]
      .flatMap((m) => (m[1] ?? '').match(/'[^']+'/g) ?? [])
      .map((name) => name.slice(1, -1));
    expect(entries).toContain('main');
    const result = await build({
      entryPoints: entries.map((name) => path.join(root, 'services/standalone/src', `${name}.ts`)),
      outdir: path.join(root, 'services/standalone/dist'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [
        {
          name: 'third-party-stays-external',
          setup(bundler) {
            bundler.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@sniplink/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    const imported = new Set(
      Object.values(result.metafile.outputs)
        .flatMap((output) => output.imports)
        .filter((entry) => entry.external && !entry.path.startsWith('node:'))
        .map((entry) =>
          entry.path
            .split('/')
            .slice(0, entry.path.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    expect(imported.size).toBeGreaterThan(10);
    // What `npm ci --omit=dev --workspace=services/standalone --include-workspace-root` installs: the
    // dependencies (not devDependencies) of the root, of services/standalone and of each workspace it
    // depends on.
    const install = stages.flatMap(runs).find((line) => line.includes('--omit=dev')) ?? '';
    expect(install).toContain('--workspace=services/standalone');
    const folders = new Map(
      rootPackage.workspaces.map((folder) => [JSON.parse(read(`${folder}/package.json`)).name, folder]),
    );
    const declared = new Set<string>(Object.keys(JSON.parse(read('package.json')).dependencies ?? {}));
    const visit = (folder: string, seen = new Set<string>()) => {
      if (seen.has(folder)) return;
      seen.add(folder);
      for (const name of Object.keys(JSON.parse(read(`${folder}/package.json`)).dependencies ?? {})) {
        const workspace = folders.get(name);
        if (workspace) visit(workspace, seen);
        else declared.add(name);
      }
    };
    visit('services/standalone');
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
    // The operator CLIs (`npm run user:*`, `projections:rebuild`) run their sources through tsx.
    expect(declared).toContain('tsx');
  });
});

describe.each([single, distributed])('$file', (compose) => {
  const env = { POSTGRES_PASSWORD: 'a-password-of-their-own' };

  it('pins every image to a version (no latest, no major-only or floating tag)', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const tag = /:([^:/]+)$/.exec(service.image ?? '')?.[1];
      expect({ name, tag }).toEqual({ name, tag: expect.stringMatching(/^\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?$/) });
    }
  });

  it('has no default password: compose refuses to start without POSTGRES_PASSWORD', () => {
    const uses = [...compose.text.matchAll(/\$\{POSTGRES_PASSWORD([^}]*)\}/g)].map((m) => m[1] ?? '');
    expect(uses.length).toBeGreaterThanOrEqual(2);
    expect(uses.every((use) => use.startsWith(':?'))).toBe(true);
    // Unset or empty (a copied deploy/env.example): every service that uses it stops compose, saying why.
    const unsets: Record<string, string>[] = [{}, { POSTGRES_PASSWORD: '' }];
    for (const unset of unsets) {
      const refused = Object.entries(compose.services)
        .filter(([, service]) => {
          try {
            environment(service, unset);
            return false;
          } catch (error) {
            expect(String(error)).toContain('POSTGRES_PASSWORD: set POSTGRES_PASSWORD in .env');
            return true;
          }
        })
        .map(([name]) => name);
      expect(refused.sort()).toEqual([...compose.app.map(([name]) => name), 'postgres'].sort());
    }
    expect(environment(compose.services.postgres ?? {}, env).POSTGRES_PASSWORD).toBe(env.POSTGRES_PASSWORD);
    for (const [, service] of compose.app) {
      expect(environment(service, env).DATABASE_URL).toBe(
        `postgres://sniplink:${env.POSTGRES_PASSWORD}@postgres:5432/sniplink`,
      );
    }
  });

  it("builds the app's image once, from deploy/Dockerfile, tagged with package.json's version", () => {
    const builders = Object.entries(compose.services).filter(([, service]) => service.build);
    expect(builders).toHaveLength(1);
    const [, builder] = builders[0] as [string, ComposeService];
    expect(compose.resolve(builder.build?.context ?? '')).toBe(root);
    expect(builder.build?.dockerfile).toBe('deploy/Dockerfile');
    expect(builder.image).toBe(`sniplink:${rootPackage.version}`);
    expect(new Set(compose.app.map(([, service]) => service.image))).toEqual(new Set([builder.image]));
  });

  it('gives every Sniplink service a health check, a restart policy and longer to stop than the app takes', () => {
    const graceMs = Number(
      /export const STOP_GRACE_MS = ([\d_]+);/
        .exec(read('services/standalone/src/process.ts'))?.[1]
        ?.replaceAll('_', ''),
    );
    expect(graceMs).toBeGreaterThan(0);
    expect(compose.app.length).toBeGreaterThan(0);
    for (const [name, service] of compose.app) {
      expect({ name, healthcheck: service.healthcheck?.test?.join(' ') }).toEqual({
        name,
        healthcheck: expect.stringContaining('/healthz'),
      });
      expect(service.restart).toBe('unless-stopped');
      expect(Number.parseInt(service.stop_grace_period ?? '0', 10) * 1000).toBeGreaterThan(graceMs);
    }
  });

  it('passes only variables the app reads (services/platform/src/config.ts)', () => {
    expect(known.size).toBeGreaterThan(30);
    for (const [name, service] of compose.app) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !known.has(variable));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
  });

  it('runs production with payments off until Stripe is configured, and with Stripe once it is', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_YEARLY: 'price_y',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    for (const [, service] of compose.app) {
      const without = loadConfig({ ...imageEnv, ...environment(service, env) });
      expect(without).toMatchObject({ nodeEnv: 'production', payments: { kind: 'off', defaulted: true } });
      const withStripe = loadConfig({ ...imageEnv, ...environment(service, { ...env, ...stripe }) });
      expect(withStripe.payments).toMatchObject({ kind: 'stripe', secretKey: stripe.STRIPE_SECRET_KEY });
    }
  });

  it('starts a service after what it depends on is healthy, and mounts only files that exist', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in compose.services }).toMatchObject({ exists: true });
        expect(condition).toBe('service_healthy');
        expect(compose.services[dependency]?.healthcheck?.test?.length).toBeGreaterThan(0);
      }
      const files = (service.volumes ?? [])
        .map((volume) => volume.split(':')[0] ?? '')
        .filter((source) => source.startsWith('.'));
      expect(files.filter((file) => !existsSync(compose.resolve(file)))).toEqual([]);
    }
  });
});

describe('compose.yaml', () => {
  it('runs the app on a PostgreSQL container that keeps its data in a volume, nothing else', () => {
    expect(Object.keys(single.services).sort()).toEqual(['app', 'postgres']);
    expect(single.services.app?.command).toBeUndefined();
    expect(single.services.postgres?.volumes).toContain('pgdata:/var/lib/postgresql/data');
  });
});

describe('deploy/compose.distributed.yaml', () => {
  it('runs two api, two redirect and two projections processes of the image', () => {
    const replicas = Object.fromEntries(
      distributed.app.map(([name, service]) => [name, service.deploy?.replicas]),
    );
    expect(replicas).toEqual({ api: 2, projections: 2, redirect: 2 });
    expect(distributed.services.redirect?.command).toEqual(nodeCommandOf('start:redirect'));
    const env = { POSTGRES_PASSWORD: 'x' };
    expect(environment(distributed.services.api ?? {}, env).PROJECTIONS).toBe('off');
    expect(environment(distributed.services.projections ?? {}, env).PROJECTIONS).toBe('on');
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
    for (const [, service] of distributed.app) {
      const config = loadConfig({ ...imageEnv, ...environment(service, { POSTGRES_PASSWORD: 'x', ...env }) });
      expect(config).toMatchObject({
        eventStore,
        clickStream,
        databaseUrl: expect.stringMatching(/@postgres:5432\//),
      });
    }
  });
});

describe('deploy/env.example', () => {
  const lines = read('deploy/env.example').split('\n');
  const listed = lines
    .map((line) => /^(?:# ?)?([A-Z][A-Z0-9_]+)=/.exec(line)?.[1])
    .filter((name) => name !== undefined);

  it("lists every variable the app reads and the compose files' own, and no other", () => {
    const composeOwn = [...interpolated(single), ...interpolated(distributed)].filter(
      (name) => !known.has(name),
    );
    expect(composeOwn).toContain('POSTGRES_PASSWORD');
    expect(new Set(listed)).toEqual(new Set([...known, ...composeOwn]));
  });

  it('gives POSTGRES_PASSWORD no value, so a copied file is refused until one is set', () => {
    expect(lines.filter((line) => line.startsWith('POSTGRES_PASSWORD='))).toEqual(['POSTGRES_PASSWORD=']);
  });

  it('matches docs/configuration.md, which lists the same variables', () => {
    const documented = read('docs/configuration.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((row) =>
        [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''),
      );
    expect(new Set(documented)).toEqual(known);
  });
});
