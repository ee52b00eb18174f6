/**
 * The service's one configuration (CONTRACT.md "Configuration"): every environment variable, its
 * default and its normalisation, in one schema. Each process parses it once, at its entry point
 * (every scripts/ command through scripts/lib/entry-config.ts, astro.config.mjs), and
 * passes the typed `Config` on; tests pass a literal env. `parseConfig` is pure: it reads only the
 * object it is given.
 *
 * To add a variable:
 *   1. add it to `EnvSchema` under its environment name, with its default and a check that says what
 *      is wrong in words an operator understands;
 *   2. map it into the typed shape in the `.transform()` of `ConfigSchema` (camelCase, grouped by who
 *      uses it, e.g. `websub.*`, `mcp.*`), so `Config` gains the field;
 *   3. add a row to the Configuration table of docs/operations.md.
 */
import { z } from 'zod';
import { formatIssue, parseWithIssues } from './schemas/issues.ts';

/** A signed-note verifier key's shape, `<name>+<8 hex id>+<base64 key>`; its users check the key itself. */
const NOTE_KEY = /^[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/;
/** Go's signed-note private key text, `PRIVATE+KEY+<name>+<8 hex id>+<base64 key>`. */
const NOTE_PRIVATE_KEY = /^PRIVATE\+KEY\+[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/;
const BooleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const IntegerList = (count: number) =>
  z
    .string()
    .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'must be a comma-separated list of whole numbers')
    .transform((s) => s.split(',').map((n) => Number(n.trim())))
    .refine((list) => list.length === count, `must have exactly ${count} values`);

const WholeNumber = (min: number) =>
  z
    .string()
    .regex(/^\s*\d+\s*$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min, `must be at least ${min}`);

/** `burst,per-second`: a client may send `burst` requests at once, then `per-second` on average. */
const RateFromEnv = z
  .string()
  .regex(/^\s*\d+\s*,\s*\d+(\.\d+)?\s*$/, 'must be burst,per-second, e.g. 30,1')
  .transform((s) => s.split(',').map((n) => Number(n.trim())))
  .refine(([burst, rate]) => burst! >= 1 && rate! > 0, 'must allow a burst of at least 1 and a positive rate')
  .transform(([burst, rate]) => ({ capacity: burst!, refillPerSecond: rate! }));

/** Express's preset subnet names (`trust proxy` accepts them beside addresses and CIDR ranges). */
const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];
const ProxyAddress = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(PROXY_PRESETS)]);

/**
 * Express's `trust proxy` setting: `true` trusts every proxy, a whole number trusts that many hops, and a
 * comma-separated list trusts those addresses, ranges or presets. Default `false`: the peer's address is
 * the client's.
 */
const TrustProxyFromEnv = z.string().transform((raw, ctx): boolean | number | string[] => {
  const value = raw.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !ProxyAddress.safeParse(entry).success);
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be true, false, a number of hops, or a comma-separated list of addresses, CIDR ranges or ${PROXY_PRESETS.join('/')} (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    });
    return z.NEVER;
  }
  return entries;
});

/** An optional setting that a scheduler may pass empty when it is not set (a GitHub secret, a compose `${X:-}`). */
const EmptyIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

/**
 * The Business Profile locations the Google sync reads: `accounts/<id>/locations/<id>` names separated by
 * commas or spaces, or `all` (every location the token can read). Unset: those business.json lists.
 */
const GOOGLE_LOCATION_NAME = /^accounts\/[^/\s,]+\/locations\/[^/\s,]+$/;
const GoogleLocationsFromEnv = z
  .string()
  .transform((raw) => raw.trim().split(/[\s,]+/))
  .refine(
    (names) => (names.length === 1 && names[0] === 'all') || names.every((name) => GOOGLE_LOCATION_NAME.test(name)),
    'must be accounts/<account id>/locations/<location id>, several separated by commas, or all (npm run sync -- google --locations lists them)',
  )
  .transform((names): string[] | 'all' => (names[0] === 'all' ? 'all' : [...new Set(names)]));

/** An HTTPS address a client calls (the Google sync's endpoints), without a trailing slash. */
const HttpsBaseUrl = z
  .string()
  .refine((raw) => URL.parse(raw)?.protocol === 'https:', 'must be an https:// URL')
  .transform((raw) => raw.replace(/\/+$/, ''));

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z
    .string()
    .transform((raw, ctx) => {
      const url = normalizePublicUrl(raw);
      if (url.ok) return url.url;
      ctx.addIssue({ code: 'custom', message: url.reason });
      return z.NEVER;
    })
    .optional(),
  CONTENT_DIR: z.string().min(1).default('content'),
  DATA_DIR: z.string().min(1).default('.data'),
  DIST_DIR: z.string().min(1).default('dist'),
  BUILD_CHECK_INTERVAL_MS: WholeNumber(100).default(2_000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: BooleanFromEnv.default(false),
  WEBSUB_RETRY_DELAYS_MS: IntegerList(2).default([60_000, 300_000]),
  WEBSUB_LEASE_SECONDS: IntegerList(3)
    .refine(([def, min, max]) => min! <= def! && def! <= max!, 'must be default,minimum,maximum with minimum <= default <= maximum')
    .default([864_000, 60, 2_592_000]),
  WEBSUB_RATE_LIMIT: RateFromEnv.default({ capacity: 30, refillPerSecond: 1 }),
  WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: WholeNumber(1).default(1_000),
  WEBSUB_MAX_PENDING_PER_HOST: WholeNumber(1).default(50),
  MCP_RATE_LIMIT: RateFromEnv.default({ capacity: 120, refillPerSecond: 20 }),
  MAX_CONNECTIONS: WholeNumber(1).default(10_000),
  MAX_CONNECTIONS_PER_ADDRESS: WholeNumber(0).default(256),
  MCP_SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  WITNESS_LOGS: z
    .string()
    .transform((s) => s.split(',').map((k) => k.trim()).filter(Boolean))
    .refine((keys) => keys.every((k) => NOTE_KEY.test(k)), 'must be a comma-separated list of review log keys, each <name>+<id>+<key> as the log serves it at /log/vkey')
    .optional(),
  WITNESS_KEY: z
    .string()
    .trim()
    .regex(NOTE_PRIVATE_KEY, "must be the witness's key in Go's signed-note form, PRIVATE+KEY+<name>+<id>+<key>")
    .optional(),
  WITNESS_RATE_LIMIT: RateFromEnv.default({ capacity: 30, refillPerSecond: 1 }),
  LOG_WITNESS_TIMEOUT_SECONDS: WholeNumber(1)
    .refine((n) => n <= 30, 'must be at most 30: a publish never waits longer for a witness')
    .default(10),
  LOG_WITNESS_QPD: WholeNumber(1).default(24),
  LOG_WITNESSES: z
    .string()
    .transform((s) => s.split(',').map((w) => w.trim()).filter(Boolean).map((w) => w.split(/\s+/)))
    .refine(
      (pairs) => pairs.every((p) => p.length === 2 && /^https?:\/\//.test(p[0]!) && NOTE_KEY.test(p[1]!)),
      "must be a comma-separated list of '<witness URL> <witness key>', the key as the witness serves it at /witness/vkey",
    )
    .transform((pairs) => pairs.map(([url, key]) => ({ url: url!.replace(/\/+$/, ''), key: key! })))
    .optional(),
  TRUST_PROXY: TrustProxyFromEnv.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  ACCESS_LOG: BooleanFromEnv.default(true),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_TIMEOUT_SECONDS: WholeNumber(0).default(10),
  SHUTDOWN_DRAIN_SECONDS: WholeNumber(0).default(0),
  GOOGLE_CLIENT_ID: EmptyIsUnset(z.string()),
  GOOGLE_CLIENT_SECRET: EmptyIsUnset(z.string()),
  GOOGLE_REFRESH_TOKEN: EmptyIsUnset(z.string()),
  GOOGLE_LOCATION: EmptyIsUnset(GoogleLocationsFromEnv),
  GOOGLE_API_URL: HttpsBaseUrl.default('https://mybusiness.googleapis.com/v4'),
  GOOGLE_TOKEN_URL: HttpsBaseUrl.default('https://oauth2.googleapis.com/token'),
  GOOGLE_AUTH_URL: HttpsBaseUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_ACCOUNTS_API_URL: HttpsBaseUrl.default('https://mybusinessaccountmanagement.googleapis.com/v1'),
  GOOGLE_LOCATIONS_API_URL: HttpsBaseUrl.default('https://mybusinessbusinessinformation.googleapis.com/v1'),
  LOG_SIGNING_KEY: EmptyIsUnset(
    z.string().trim().regex(NOTE_PRIVATE_KEY, "must be the review log's key in Go's signed-note form, PRIVATE+KEY+<name>+<id>+<key>"),
  ),
  LOG_JOBS_KEY: EmptyIsUnset(
    z.string().trim().regex(/^reviews-job-key\/v1 [A-Za-z0-9+/]{43}=$/, 'must be the job key file\'s one line, reviews-job-key/v1 <32 bytes in base64>'),
  ),
});

export const ConfigSchema = EnvSchema.transform((e) => {
  const [defaultSeconds, minSeconds, maxSeconds] = e.WEBSUB_LEASE_SECONDS as [number, number, number];
  const origins = (e.MCP_ALLOWED_ORIGINS ?? '').trim();
  return {
    port: e.PORT,
    host: e.HOST,
    /** The `{base_url}`: an origin, and maybe a path, without a trailing slash: `https://reviews.example.com`, `https://example.com/reviews`. */
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    /** Where this machine reaches the running service (a wildcard HOST is reached on loopback), for `npm run publish`. */
    serviceUrl: reachableServiceUrl(e.HOST, e.PORT),
    contentDir: e.CONTENT_DIR,
    dataDir: e.DATA_DIR,
    distDir: e.DIST_DIR,
    /** The review log's Ed25519 key (docs/log.md); without it, the key file in DATA_DIR. Never logged. */
    logSigningKey: e.LOG_SIGNING_KEY,
    /** The job key (scripts/lib/job-key.ts); without it, the key file beside the log's. Never logged. */
    logJobsKey: e.LOG_JOBS_KEY,
    /**
     * How often the sidecar checks DIST_DIR for a new build (one realpath and one stat), besides a file
     * watch and the publish ping: the longest a build swapped in without a ping waits to be served.
     */
    buildCheckIntervalMs: e.BUILD_CHECK_INTERVAL_MS,
    databaseUrl: e.DATABASE_URL,
    /** Express's `trust proxy`: which proxies' `X-Forwarded-For` decides a client's address (rate limits). */
    trustProxy: e.TRUST_PROXY,
    websub: {
      allowPrivateCallbacks: e.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
      /** Waits before the 2nd and 3rd delivery attempt. */
      retryDelaysMs: e.WEBSUB_RETRY_DELAYS_MS,
      lease: { defaultSeconds, minSeconds, maxSeconds },
      /** Hub requests per client address (IPv6 by /64). */
      rateLimit: e.WEBSUB_RATE_LIMIT,
      /** Subscriptions (all topics) whose callbacks are on one host, one address (IPv6 /64) or one registrable domain. */
      maxSubscriptionsPerHost: e.WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST,
      /** Verifications under way at once for callbacks on one host, address or registrable domain. */
      maxPendingVerificationsPerHost: e.WEBSUB_MAX_PENDING_PER_HOST,
      // Fixed tuning (no variable): tests and benchmarks shorten it through the sidecar's options.
      /** Verifications under way at once, all hosts together. */
      maxPendingVerifications: 1_000,
      /** Consecutive failed deliveries that remove a subscription. */
      maxAttempts: 3,
      /** How often the store is polled for due deliveries (other instances' and retries). */
      pollIntervalMs: 1_000,
      /** How long a claim protects a delivery from other instances (an instance that died). */
      claimTtlMs: 300_000,
      /** Deliveries this instance has claimed and not finished at once. */
      maxInFlight: 64,
      /** How often expired subscriptions are removed. */
      sweepIntervalMs: 60_000,
      /** How often the store is checked with a real query (readiness; noticing it came back). */
      storeCheckIntervalMs: 5_000,
      /** Backoff of a change the store could not record: first wait, doubling up to `max`. */
      recordRetryMs: { first: 1_000, max: 60_000 },
    },
    /** Connection limits of the HTTP server; 0 per address means no per-address cap. */
    connections: { max: e.MAX_CONNECTIONS, perAddress: e.MAX_CONNECTIONS_PER_ADDRESS },
    mcp: {
      /** Unset: the sidecar draws a random one at start (sessions then last as long as the process). */
      sessionSecret: e.MCP_SESSION_SECRET,
      /** Browser origins allowed besides the public origin; `'*'` allows any. */
      allowedOrigins: origins === '*' ? ('*' as const) : origins.split(',').map((o) => o.trim()).filter(Boolean),
      /** `/mcp` requests per client address (IPv6 by /64). */
      rateLimit: e.MCP_RATE_LIMIT,
    },
    witness: {
      /** The review logs (their vkeys) this sidecar cosigns for at /witness/add-checkpoint; empty: no witness. */
      logs: e.WITNESS_LOGS ?? [],
      /** The witness's Ed25519 key; without it, the key file in DATA_DIR, created on first use. Never logged. */
      key: e.WITNESS_KEY,
      /** `/witness/*` requests per client address (IPv6 by /64), as on the hub. */
      rateLimit: e.WITNESS_RATE_LIMIT,
    },
    /** Witnesses each publish asks to cosign the new checkpoint (C2SP tlog-witness). */
    logWitnesses: e.LOG_WITNESSES ?? [],
    logWitnessing: {
      /** The longest a publish waits for the witnesses (asked in parallel); the running service asks again later. */
      timeoutMs: e.LOG_WITNESS_TIMEOUT_SECONDS * 1000,
      /** add-checkpoint requests a day, at most, to each witness: the rate declared to witness-network.org. */
      qpd: e.LOG_WITNESS_QPD,
      // Fixed tuning (no variable): tests shorten it through the sidecar's options.
      /** How often the running service asks the witnesses whose cosignature the served checkpoint lacks. */
      retryIntervalMs: 60_000,
    },
    logLevel: e.LOG_LEVEL,
    /** One `request` log line per request (at level info). */
    accessLog: e.ACCESS_LOG,
    /** `/metrics` answers requests bearing this token; without one, only clients on loopback (as TRUST_PROXY tells). */
    metricsToken: e.METRICS_TOKEN,
    /**
     * On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are
     * closed; idle keep-alive connections close at their keep-alive timeout (5 s) or sooner.
     */
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    /**
     * On SIGTERM/SIGINT, how long the listener still accepts (and answers, with `Connection: close`)
     * while `/readyz` already says 503, so a proxy's health check moves traffic away before a connection
     * can be refused. 0 (alone, nothing to move to): stop accepting at once. Behind a proxy: more than its
     * health-check interval.
     */
    shutdownDrainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
    /** The Google sync (`npm run sync -- google`, docs/import.md "Sync"): the OAuth client, its token, the location, the endpoints. */
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      /** Unset: the one `--authorize` stored in DATA_DIR. */
      refreshToken: e.GOOGLE_REFRESH_TOKEN,
      /** GOOGLE_LOCATION's names, or `all`; unset: the `google_location`s of business.json. */
      locations: e.GOOGLE_LOCATION,
      apiUrl: e.GOOGLE_API_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      authUrl: e.GOOGLE_AUTH_URL,
      accountsApiUrl: e.GOOGLE_ACCOUNTS_API_URL,
      locationsApiUrl: e.GOOGLE_LOCATIONS_API_URL,
    },
  };
});

export type Config = z.output<typeof ConfigSchema>;
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Every problem is reported together, each naming its variable. */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const parsed = parseWithIssues(ConfigSchema, env);
  return parsed.ok ? { ok: true, config: parsed.value } : { ok: false, problems: parsed.issues.map(formatIssue) };
}

/** The line an entry point prints before exiting on invalid configuration. */
export function formatConfigProblems(problems: readonly string[]): string {
  return `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}

/**
 * The interface's `{base_url}`: an origin, or an origin and a path when the service lives under the
 * business's own site (`https://example.com/reviews`); the trailing slash goes, a query or fragment is refused.
 */
function normalizePublicUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must be http or https' };
  if (url.search || url.hash || url.username || url.password) {
    return { ok: false, reason: 'must be an origin and maybe a path (no query, fragment or user), e.g. https://reviews.example.com or https://example.com/reviews' };
  }
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

function reachableServiceUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
