import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://snip.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/sniplink',
      DATA_DIR: '/var/lib/sniplink',
      CLICK_STREAM: 'kafka',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      PROJECTIONS: 'off',
    });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://snip.example.com',
      databaseUrl: 'postgres://u:p@db:5432/sniplink',
      dataDir: '/var/lib/sniplink',
      clickStream: { kind: 'kafka', brokers: ['k1:9092', 'k2:9092'] },
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

  it('keeps counted clicks in the click log for 7 days, or as many as told, or (0) for ever', () => {
    expect(loadConfig({}).clickLogRetentionDays).toBe(7);
    expect(loadConfig({ CLICK_LOG_RETENTION_DAYS: '30' }).clickLogRetentionDays).toBe(30);
    expect(loadConfig({ CLICK_LOG_RETENTION_DAYS: '0' }).clickLogRetentionDays).toBe(0);
    expect(() => loadConfig({ CLICK_LOG_RETENTION_DAYS: '-1' })).toThrow(
      /CLICK_LOG_RETENTION_DAYS: must be a whole number between 0 and 36500/,
    );
    expect(() => loadConfig({ CLICK_LOG_RETENTION_DAYS: '1.5' })).toThrow(/CLICK_LOG_RETENTION_DAYS/);
  });

  it('lets clicks spill to 512 MB of files while the click stream is down, or as many MB as told, or (0) none', () => {
    expect(loadConfig({}).clickSpillMaxBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ CLICK_SPILL_MAX_MB: '2' }).clickSpillMaxBytes).toBe(2 * 1024 * 1024);
    expect(loadConfig({ CLICK_SPILL_MAX_MB: '0' }).clickSpillMaxBytes).toBe(0);
    expect(() => loadConfig({ CLICK_SPILL_MAX_MB: 'lots' })).toThrow(
      /CLICK_SPILL_MAX_MB: must be a whole number between 0 and 1048576/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });
});
