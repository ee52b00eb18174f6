/** The one configuration (core/config.ts): names, defaults, normalisation, and TRUST_PROXY over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../core/config.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';

function parse(env: Record<string, string>): Config {
  const parsed = parseConfig(env);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
}

describe('parseConfig', () => {
  it('gives every variable its documented default', () => {
    expect(parse({})).toEqual({
      port: 4321,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:4321',
      serviceUrl: 'http://127.0.0.1:4321',
      contentDir: 'content',
      dataDir: '.data',
      distDir: 'dist',
      buildCheckIntervalMs: 2000,
      databaseUrl: undefined,
      trustProxy: false,
      websub: {
        allowPrivateCallbacks: false,
        retryDelaysMs: [60_000, 300_000],
        lease: { defaultSeconds: 864_000, minSeconds: 60, maxSeconds: 2_592_000 },
        rateLimit: { capacity: 30, refillPerSecond: 1 },
        maxSubscriptionsPerHost: 1_000,
        maxPendingVerificationsPerHost: 50,
        maxPendingVerifications: 1_000,
        maxAttempts: 3,
        pollIntervalMs: 1_000,
        claimTtlMs: 300_000,
        maxInFlight: 64,
        sweepIntervalMs: 60_000,
        storeCheckIntervalMs: 5_000,
        recordRetryMs: { first: 1_000, max: 60_000 },
      },
      connections: { max: 10_000, perAddress: 256 },
      mcp: { sessionSecret: undefined, allowedOrigins: [], rateLimit: { capacity: 120, refillPerSecond: 20 } },
      logLevel: 'info',
      accessLog: true,
      metricsToken: undefined,
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 0,
      witness: { logs: [], key: undefined, rateLimit: { capacity: 30, refillPerSecond: 1 } },
      logSigningKey: undefined,
      logWitnesses: [],
      logWitnessing: { timeoutMs: 10_000, qpd: 24, retryIntervalMs: 60_000 },
      google: {
        clientId: undefined,
        clientSecret: undefined,
        refreshToken: undefined,
        location: undefined,
        apiUrl: 'https://mybusiness.googleapis.com/v4',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        accountsApiUrl: 'https://mybusinessaccountmanagement.googleapis.com/v1',
        locationsApiUrl: 'https://mybusinessbusinessinformation.googleapis.com/v1',
      },
    });
  });

  it('reads every variable under its own name', () => {
    const config = parse({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://reviews.example.com/',
      CONTENT_DIR: 'c',
      DATA_DIR: 'd',
      DIST_DIR: 'o',
      BUILD_CHECK_INTERVAL_MS: '500',
      DATABASE_URL: 'postgres://u@db/x',
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_RETRY_DELAYS_MS: '10, 20',
      WEBSUB_LEASE_SECONDS: '100,10,1000',
      MCP_SESSION_SECRET: 'a-secret-of-16-chars',
      MCP_ALLOWED_ORIGINS: 'http://a.example, http://b.example',
      TRUST_PROXY: '2',
      WEBSUB_RATE_LIMIT: '5,0.5',
      WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '20',
      WEBSUB_MAX_PENDING_PER_HOST: '3',
      MCP_RATE_LIMIT: '60,10',
      MAX_CONNECTIONS: '900',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      LOG_LEVEL: 'warn',
      ACCESS_LOG: 'false',
      METRICS_TOKEN: 'a-token-of-16-chars',
      SHUTDOWN_TIMEOUT_SECONDS: '30',
      WITNESS_RATE_LIMIT: '10,2',
      LOG_WITNESS_TIMEOUT_SECONDS: '5',
      LOG_WITNESS_QPD: '48',
    });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://reviews.example.com',
      serviceUrl: 'http://127.0.0.1:8080',
      contentDir: 'c',
      dataDir: 'd',
      distDir: 'o',
      buildCheckIntervalMs: 500,
      databaseUrl: 'postgres://u@db/x',
      trustProxy: 2,
      websub: {
        allowPrivateCallbacks: true,
        retryDelaysMs: [10, 20],
        lease: { defaultSeconds: 100, minSeconds: 10, maxSeconds: 1000 },
        rateLimit: { capacity: 5, refillPerSecond: 0.5 },
        maxSubscriptionsPerHost: 20,
        maxPendingVerificationsPerHost: 3,
        maxPendingVerifications: 1_000,
        maxAttempts: 3,
        pollIntervalMs: 1_000,
        claimTtlMs: 300_000,
        maxInFlight: 64,
        sweepIntervalMs: 60_000,
        storeCheckIntervalMs: 5_000,
        recordRetryMs: { first: 1_000, max: 60_000 },
      },
      connections: { max: 900, perAddress: 0 },
      mcp: { sessionSecret: 'a-secret-of-16-chars', allowedOrigins: ['http://a.example', 'http://b.example'], rateLimit: { capacity: 60, refillPerSecond: 10 } },
      logLevel: 'warn',
      accessLog: false,
      metricsToken: 'a-token-of-16-chars',
      shutdownTimeoutMs: 30_000,
      shutdownDrainMs: 0,
      witness: { logs: [], key: undefined, rateLimit: { capacity: 10, refillPerSecond: 2 } },
      logSigningKey: undefined,
      logWitnesses: [],
      logWitnessing: { timeoutMs: 5_000, qpd: 48, retryIntervalMs: 60_000 },
      google: {
        clientId: undefined,
        clientSecret: undefined,
        refreshToken: undefined,
        location: undefined,
        apiUrl: 'https://mybusiness.googleapis.com/v4',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        accountsApiUrl: 'https://mybusinessaccountmanagement.googleapis.com/v1',
        locationsApiUrl: 'https://mybusinessbusinessinformation.googleapis.com/v1',
      },
    });
  });

  it('takes an empty LOG_SIGNING_KEY or LOG_JOBS_KEY as unset, as a CI runner passes a secret nobody set', () => {
    expect(parse({ LOG_SIGNING_KEY: '', LOG_JOBS_KEY: ' ' })).toMatchObject({ logSigningKey: undefined, logJobsKey: undefined });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', 1],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7, ::1, uniquelocal', ['10.0.0.0/8', '192.168.1.7', '::1', 'uniquelocal']],
  ])('reads TRUST_PROXY=%s as Express reads it', (value, expected) => {
    expect(parse({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('defaults the public URL to localhost on the configured port, and reaches a wildcard HOST on loopback', () => {
    expect(parse({ PORT: '9000', HOST: '::' })).toMatchObject({ publicUrl: 'http://localhost:9000', serviceUrl: 'http://[::1]:9000' });
  });

  it('reports every problem together, each naming its variable', () => {
    const parsed = parseConfig({ PORT: 'eighty', PUBLIC_URL: 'https://x.example/some/path?q=1', TRUST_PROXY: 'my-proxy', LOG_LEVEL: 'loud' });
    expect(parsed.ok).toBe(false);
    const names = parsed.ok ? [] : parsed.problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual(['LOG_LEVEL', 'PORT', 'PUBLIC_URL', 'TRUST_PROXY']);
  });
});

describe('TRUST_PROXY', () => {
  let distDir: string;
  const started: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    ({ distDir } = await buildTestSite({}));
  }, 60_000);
  afterAll(async () => {
    for (const s of started) await s.close();
  });

  /** Spends one address's burst of hub requests, then asks as another address behind the same proxy. */
  async function secondClientStatus(env: Record<string, string>): Promise<number> {
    const sidecar = await startTestSidecar({ distDir, env });
    started.push(sidecar);
    const ping = (client: string) =>
      fetch(`${sidecar.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
        body: 'hub.mode=publish',
      });
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) status = (await ping('203.0.113.1')).status;
    expect(status).toBe(429);
    return (await ping('203.0.113.2')).status;
  }

  it('unset: every client behind a proxy shares the proxy address, and its rate-limit bucket', async () => {
    expect(await secondClientStatus({})).toBe(429);
  });

  it('set to the proxy: each client has its own bucket, from X-Forwarded-For', async () => {
    expect(await secondClientStatus({ TRUST_PROXY: 'loopback' })).toBe(400);
  });
});
