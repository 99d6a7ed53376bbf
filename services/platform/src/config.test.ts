import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, refuseTestPaymentsInProduction } from './config';

describe('configuration from the environment', () => {
  it('defaults to the embedded database, port 3000 and ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: path.resolve('data'),
      eventStore: { kind: 'postgres' },
      clickStream: { kind: 'postgres', partitions: 8 },
      runProjections: true,
    });
  });

  it('names itself, without PUBLIC_URL, by an address a browser here reaches on HOST', () => {
    const publicUrlOn = (HOST: string) => loadConfig({ HOST, PORT: '8080' }).publicUrl;
    for (const host of ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']) {
      expect(publicUrlOn(host)).toBe('http://localhost:8080');
    }
    expect(publicUrlOn('192.168.1.20')).toBe('http://192.168.1.20:8080');
    expect(publicUrlOn('fd00::20')).toBe('http://[fd00::20]:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://snip.example.com' }).publicUrl).toBe(
      'https://snip.example.com',
    );
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://snip.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/sniplink',
      DATA_DIR: '/var/lib/sniplink',
      CLICK_STREAM: 'kafka',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      KAFKA_TOPIC: 'site-clicks',
      CLICK_PARTITIONS: '12',
      PROJECTIONS: 'off',
    });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://snip.example.com',
      databaseUrl: 'postgres://u:p@db:5432/sniplink',
      dataDir: '/var/lib/sniplink',
      clickStream: { kind: 'kafka', brokers: ['k1:9092', 'k2:9092'], topic: 'site-clicks', partitions: 12 },
      runProjections: false,
    });
  });

  it('names every bad variable in one error, without echoing values', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://secret@db', EVENT_STORE: 'eventstoredb' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(message).toMatch(/ESDB_URL: is required when EVENT_STORE=eventstoredb/);
    expect(message).not.toMatch(/secret|eighty/);
  });

  it("takes the EventStoreDB server's kurrentdb:// or esdb:// URL, and refuses any other", () => {
    for (const url of ['kurrentdb://db:2113?tls=false', 'esdb+discover://db:2113', 'kdb://db:2113']) {
      expect(loadConfig({ EVENT_STORE: 'eventstoredb', ESDB_URL: url }).eventStore).toEqual({
        kind: 'eventstoredb',
        url,
      });
    }
    expect(() => loadConfig({ EVENT_STORE: 'eventstoredb', ESDB_URL: 'http://db:2113' })).toThrow(
      /ESDB_URL: must be a kurrentdb:\/\/ or esdb:\/\/ URL/,
    );
  });

  it('limits the demo to 5 links per visitor and 20 per address a day, 30 requests a minute', () => {
    expect(loadConfig({}).demoLimits).toEqual({ perVisitor: 5, perIp: 20, requestsPerMinute: 30 });
    const config = loadConfig({
      DEMO_MAX_PER_VISITOR: '2',
      DEMO_MAX_PER_IP: '100',
      DEMO_MAX_REQUESTS_PER_MINUTE: '60',
    });
    expect(config.demoLimits).toEqual({ perVisitor: 2, perIp: 100, requestsPerMinute: 60 });
    expect(() => loadConfig({ DEMO_MAX_PER_VISITOR: '0' })).toThrow(/DEMO_MAX_PER_VISITOR/);
  });

  it('takes the link allowances behind the admin settings from FREE_LINK_LIMIT and PRO_LINK_LIMIT, else 5 and 500', () => {
    expect(loadConfig({}).linkLimitDefaults).toEqual({ free: 5, proMonthly: 500 });
    expect(loadConfig({ FREE_LINK_LIMIT: '10', PRO_LINK_LIMIT: '2000' }).linkLimitDefaults).toEqual({
      free: 10,
      proMonthly: 2000,
    });
    for (const [name, value] of [
      ['FREE_LINK_LIMIT', '0'],
      ['FREE_LINK_LIMIT', 'ten'],
      ['PRO_LINK_LIMIT', '2.5'],
      ['PRO_LINK_LIMIT', '-1'],
      ['PRO_LINK_LIMIT', '1000001'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
        `${name}: must be a whole number between 1 and 1000000`,
      );
    }
  });

  it('lets an account change codes 20 times a day, or as many as told (at least 1)', () => {
    expect(loadConfig({}).codeChangesPerDay).toBe(20);
    expect(loadConfig({ CODE_CHANGES_PER_DAY: '3' }).codeChangesPerDay).toBe(3);
    expect(() => loadConfig({ CODE_CHANGES_PER_DAY: '0' })).toThrow(
      /CODE_CHANGES_PER_DAY: must be a whole number between 1 and 100000/,
    );
  });

  it('limits sign-ups to 10 per client address an hour, and sign-in failures to 5 / 50 per 15 minutes', () => {
    expect(loadConfig({}).signupLimits).toEqual({ perIp: 10, windowSeconds: 3_600 });
    expect(loadConfig({}).loginLimits).toEqual({ perAccount: 5, perIp: 50, windowSeconds: 900 });
    const config = loadConfig({ SIGNUP_MAX_PER_IP: '200', SIGNUP_WINDOW_SECONDS: '86400' });
    expect(config.signupLimits).toEqual({ perIp: 200, windowSeconds: 86_400 });
    expect(() => loadConfig({ SIGNUP_MAX_PER_IP: '0' })).toThrow(/SIGNUP_MAX_PER_IP: must be a whole number/);
    expect(() => loadConfig({ SIGNUP_WINDOW_SECONDS: 'hour' })).toThrow(/SIGNUP_WINDOW_SECONDS/);
  });

  it('keeps counted clicks in the click log for 7 days, or as many as told, or (0) for ever', () => {
    expect(loadConfig({}).clickLogRetentionDays).toBe(7);
    expect(loadConfig({ CLICK_LOG_RETENTION_DAYS: '30' }).clickLogRetentionDays).toBe(30);
    expect(loadConfig({ CLICK_LOG_RETENTION_DAYS: '0' }).clickLogRetentionDays).toBe(0);
    expect(() => loadConfig({ CLICK_LOG_RETENTION_DAYS: '-1' })).toThrow(
      /CLICK_LOG_RETENTION_DAYS: must be a whole number between 0 and 36500/,
    );
    expect(() => loadConfig({ CLICK_LOG_RETENTION_DAYS: '1.5' })).toThrow(/CLICK_LOG_RETENTION_DAYS/);
  });

  it('reads TRUST_PROXY as no proxy, a number of hops, proxy addresses and ranges, or (warned about) every hop', () => {
    const trust = (value?: string) =>
      loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;
    expect(trust()).toEqual({ kind: 'none' });
    expect(trust('false')).toEqual({ kind: 'none' });
    expect(trust('0')).toEqual({ kind: 'none' });
    expect(trust('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(trust('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(trust('10.0.0.0/8, 127.0.0.1,::1')).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', '127.0.0.1', '::1'],
    });
    expect(trust('loopback,fd00::/8')).toEqual({ kind: 'addresses', addresses: ['loopback', 'fd00::/8'] });
    expect(trust('true')).toEqual({ kind: 'every' });
  });

  it.each([
    ['a range past /32', '10.0.0.0/33'],
    ['a host name', 'proxy.internal'],
    ['an empty entry', '10.0.0.1,'],
    ['a negative count', '-1'],
    ['yes', 'yes'],
  ])('refuses a TRUST_PROXY with %s, naming the variable and its forms but not the value', (_what, value) => {
    let error: unknown;
    try {
      loadConfig({ TRUST_PROXY: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/TRUST_PROXY: must be false, a number of proxy hops .* CIDR ranges/);
    expect(message).not.toContain(value);
  });

  it('times a request out after 30 s unless REQUEST_TIMEOUT_MS says otherwise', () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(30_000);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(
      /REQUEST_TIMEOUT_MS: must be a whole number/,
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('redirects on the fast path unless REDIRECT_FAST_PATH=off; another value is refused by name', () => {
    expect(loadConfig({}).redirectFastPath).toBe('on');
    expect(loadConfig({ REDIRECT_FAST_PATH: 'off' }).redirectFastPath).toBe('off');
    expect(() => loadConfig({ REDIRECT_FAST_PATH: 'fast' })).toThrow(/REDIRECT_FAST_PATH: .*"on".*"off"/);
  });

  it('serves /metrics only when METRICS=on or a METRICS_TOKEN is set, and refuses a short token by name', () => {
    const token = 'a-scrape-token-of-32-characters!';
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS: 'on' }).metrics).toEqual({ token: undefined });
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token });
    expect(loadConfig({ METRICS: 'off', METRICS_TOKEN: token }).metrics).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => loadConfig({ METRICS: 'yes' })).toThrow(/METRICS: /);
  });

  it('logs failed requests unless ACCESS_LOG says off or all', () => {
    expect(loadConfig({}).accessLog).toBe('errors');
    expect(loadConfig({ ACCESS_LOG: 'all' }).accessLog).toBe('all');
    expect(() => loadConfig({ ACCESS_LOG: 'verbose' })).toThrow(/ACCESS_LOG: .*"off".*"errors".*"all"/);
  });

  it('lets clicks spill to 512 MB of files while the click stream is down, or as many MB as told, or (0) none', () => {
    expect(loadConfig({}).clickSpillMaxBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ CLICK_SPILL_MAX_MB: '2' }).clickSpillMaxBytes).toBe(2 * 1024 * 1024);
    expect(loadConfig({ CLICK_SPILL_MAX_MB: '0' }).clickSpillMaxBytes).toBe(0);
    expect(() => loadConfig({ CLICK_SPILL_MAX_MB: 'lots' })).toThrow(
      /CLICK_SPILL_MAX_MB: must be a whole number between 0 and 1048576/,
    );
  });

  it("counts the admin Overview's days in UTC unless TIME_ZONE names an IANA time zone", () => {
    expect(loadConfig({}).timeZone).toBe('UTC');
    expect(loadConfig({ TIME_ZONE: 'Europe/Paris' }).timeZone).toBe('Europe/Paris');
    expect(loadConfig({ TIME_ZONE: 'Asia/Kathmandu' }).timeZone).toBe('Asia/Kathmandu');
    for (const value of ['Mars/Olympus_Mons', '+02:00', 'UTC+2', "Europe/Paris'"]) {
      expect(() => loadConfig({ TIME_ZONE: value })).toThrow(/TIME_ZONE: must be an IANA time zone name/);
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });

  describe('payments', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PRICE_MONTHLY: 'price_monthly',
      STRIPE_PRICE_YEARLY: 'price_yearly',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };

    it('uses the local test checkout without STRIPE_SECRET_KEY, and Stripe with it', () => {
      expect(loadConfig({}).payments).toEqual({ kind: 'local', webhookSecret: undefined });
      expect(loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' }).payments).toEqual({
        kind: 'local',
        webhookSecret: 'whsec_x',
      });
      expect(loadConfig(stripe).payments).toEqual({
        kind: 'stripe',
        secretKey: 'sk_test_123',
        prices: { monthly: 'price_monthly', yearly: 'price_yearly' },
        webhookSecret: 'whsec_abc',
        publishableKey: null,
      });
      expect(loadConfig({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }).payments).toMatchObject({
        publishableKey: 'pk_test_abc',
      });
      expect(problemsOf({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'sk_test_pasted' })).toEqual([
        'STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key (pk_…)',
      ]);
    });

    it('names each setting Stripe needs that is missing, and a key or secret of the wrong kind', () => {
      expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PRICE_YEARLY: 'price_y' })).toEqual([
        'STRIPE_PRICE_MONTHLY: is required when STRIPE_SECRET_KEY is set',
        'STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set',
      ]);
      expect(problemsOf({ STRIPE_PRICE_MONTHLY: 'price_m' })).toEqual([
        'STRIPE_SECRET_KEY: is required when a STRIPE_PRICE_* is set',
      ]);
      const wrongKinds = problemsOf({
        ...stripe,
        STRIPE_SECRET_KEY: 'pk_test_publishable',
        STRIPE_WEBHOOK_SECRET: 'sk_test_pasted_here',
      });
      expect(wrongKinds).toEqual([
        'STRIPE_SECRET_KEY: must be a Stripe secret key (sk_… or rk_…)',
        "STRIPE_WEBHOOK_SECRET: must be a webhook signing secret (whsec_…, from Stripe's webhook endpoint)",
      ]);
      expect(wrongKinds.join()).not.toMatch(/publishable|pasted/);
    });

    it('turns payments off in production when no provider is configured, and takes PAYMENTS as said', () => {
      expect(loadConfig({ NODE_ENV: 'production' }).payments).toEqual({ kind: 'off', defaulted: true });
      expect(loadConfig({ NODE_ENV: 'production', ...stripe }).payments).toMatchObject({ kind: 'stripe' });
      expect(loadConfig({ PAYMENTS: 'off' }).payments).toEqual({ kind: 'off', defaulted: false });
      expect(loadConfig({ PAYMENTS: 'off', ...stripe }).payments).toEqual({ kind: 'off', defaulted: false });
      expect(loadConfig({ PAYMENTS: 'local', ...stripe }).payments).toEqual({
        kind: 'local',
        webhookSecret: 'whsec_abc',
      });
      expect(loadConfig({ PAYMENTS: 'stripe', ...stripe }).payments).toMatchObject({ kind: 'stripe' });
      expect(problemsOf({ PAYMENTS: 'stripe' })).toEqual([
        'STRIPE_SECRET_KEY: is required when PAYMENTS=stripe',
      ]);
      expect(problemsOf({ PAYMENTS: 'paypal' })[0]).toMatch(/^PAYMENTS: /);
    });

    it('refuses the local test checkout in production, naming PAYMENTS=stripe and PAYMENTS=off', () => {
      const production = loadConfig({ NODE_ENV: 'production', PAYMENTS: 'local' });
      expect(() => refuseTestPaymentsInProduction(production)).toThrow(
        /PAYMENTS: local is refused when NODE_ENV=production.*PAYMENTS=stripe.*PAYMENTS=off/,
      );
      for (const env of [{}, stripe, { PAYMENTS: 'off' }]) {
        expect(() =>
          refuseTestPaymentsInProduction(loadConfig({ NODE_ENV: 'production', ...env })),
        ).not.toThrow();
      }
      expect(() => refuseTestPaymentsInProduction(loadConfig({ NODE_ENV: 'development' }))).not.toThrow();
    });
  });
});
