/**
 * The sidecar's configuration (CONTRACT.md "Configuration"). Parsed once, in the composition root,
 * from environment variables; everything else receives the typed `Config`, so tests pass literals.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

const BooleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const IntegerList = (count: number) =>
  z
    .string()
    .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'must be a comma-separated list of whole numbers')
    .transform((s) => s.split(',').map((n) => Number(n.trim())))
    .refine((list) => list.length === count, `must have exactly ${count} values`);

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  CONTENT_DIR: z.string().min(1).default('content'),
  DATA_DIR: z.string().min(1).default('.data'),
  DIST_DIR: z.string().min(1).default('dist'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: BooleanFromEnv.default(false),
  WEBSUB_RETRY_DELAYS_MS: IntegerList(2).default([60_000, 300_000]),
  WEBSUB_LEASE_SECONDS: IntegerList(3)
    .refine(([def, min, max]) => min! <= def! && def! <= max!, 'must be default,minimum,maximum with minimum <= default <= maximum')
    .default([864_000, 60, 2_592_000]),
  MCP_SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  /** The `{base_url}`: an origin without a trailing slash, e.g. `https://reviews.example.com`. */
  publicUrl: string;
  contentDir: string;
  dataDir: string;
  distDir: string;
  databaseUrl: string | undefined;
  websub: {
    allowPrivateCallbacks: boolean;
    /** Waits before the 2nd and 3rd delivery attempt. */
    retryDelaysMs: number[];
    lease: { defaultSeconds: number; minSeconds: number; maxSeconds: number };
  };
  mcp: {
    sessionSecret: string;
    /** Browser origins allowed besides the public origin; `'*'` allows any. */
    allowedOrigins: string[] | '*';
  };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
};

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Reads the environment once. Every problem is reported together, each naming its variable. */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  const e = parsed.data;
  const publicUrl = normalizePublicUrl(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  if (!publicUrl.ok) return { ok: false, problems: [`PUBLIC_URL: ${publicUrl.reason}`] };
  const [defaultSeconds, minSeconds, maxSeconds] = e.WEBSUB_LEASE_SECONDS as [number, number, number];
  const origins = (e.MCP_ALLOWED_ORIGINS ?? '').trim();
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      publicUrl: publicUrl.url,
      contentDir: e.CONTENT_DIR,
      dataDir: e.DATA_DIR,
      distDir: e.DIST_DIR,
      databaseUrl: e.DATABASE_URL,
      websub: {
        allowPrivateCallbacks: e.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
        retryDelaysMs: e.WEBSUB_RETRY_DELAYS_MS,
        lease: { defaultSeconds, minSeconds, maxSeconds },
      },
      mcp: {
        sessionSecret: e.MCP_SESSION_SECRET ?? randomBytes(32).toString('base64url'),
        allowedOrigins:
          origins === '*'
            ? '*'
            : origins
                .split(',')
                .map((o) => o.trim())
                .filter(Boolean),
      },
      logLevel: e.LOG_LEVEL,
    },
  };
}

/** The interface's `{base_url}` is a single origin: a path, query or fragment is refused. */
export function normalizePublicUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must be http or https' };
  if (url.pathname !== '/' || url.search || url.hash) {
    return { ok: false, reason: 'must be an origin only (no path, query or fragment), e.g. https://reviews.example.com' };
  }
  return { ok: true, url: url.origin };
}
