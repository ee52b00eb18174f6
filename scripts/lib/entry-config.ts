/**
 * Every entry point's first step (`readEntryConfig`): the configuration from the environment and the
 * project's `.env` file (a variable set in the process environment wins), or one line per problem and
 * exit 1; and the service's URLs, built once from it, for the entry point to pass on.
 *
 * Also the two rules about where the content comes from, for start, build and publish: the owner's
 * folder (CONTENT_DIR, default `content/`), or, when CONTENT_DIR is not set and `content/` does not
 * exist, the demo business of `examples/demo/`, whose build carries a banner saying so.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { formatConfigProblems, parseConfig, type Config } from '../../core/config.ts';
import { createServiceUrls, type ServiceUrls } from '../../core/urls.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ENV_FILE = path.join(PROJECT_ROOT, '.env');
export const DEMO_CONTENT_DIR = path.join(PROJECT_ROOT, 'examples', 'demo');
/** The command that makes an owner's own content folder, named wherever the demo is shown. */
export const INIT_COMMAND = 'npm run init';

type Env = Record<string, string | undefined>;

export type EntryConfig = {
  config: Config;
  /** The environment the configuration was read from (the process's over `.env`'s). */
  env: Env;
  /** The service's URLs under `config.publicUrl`, built once here. */
  urls: ServiceUrls;
  /** Whether the content is the demo of examples/demo/ (only with `demoFallback`). */
  demo: boolean;
};

/**
 * The configuration an entry point runs with, or one line per problem and exit 1. With `demoFallback`
 * (start, build, publish), a missing `content/` with no CONTENT_DIR means the demo (`resolveContent`).
 */
export function readEntryConfig(options: { demoFallback?: boolean } = {}): EntryConfig {
  const env = readEnvironment();
  const parsed = readConfigOrExit(env);
  const { config, demo } = options.demoFallback ? resolveContent(parsed, env) : { config: parsed, demo: false };
  return { config, env, urls: createServiceUrls(config.publicUrl), demo };
}

/** The ENV_FILE value that reads no file. */
export const NO_ENV_FILE = 'none';

/**
 * The `.env` file's variables under the process environment's (which win). No file: the environment
 * alone. ENV_FILE names another file (a secrets mount; the tests' own); ENV_FILE=none reads no file at
 * all (the container image sets it: its configuration comes from its environment only, whatever file a
 * build context or a mount brings).
 */
function readEnvironment(env: Env = process.env): Env {
  if (env.ENV_FILE === NO_ENV_FILE) return env;
  const file = envFileOf(env);
  if (!existsSync(file)) {
    if (!env.ENV_FILE) return env;
    console.error(`ENV_FILE: ${file} does not exist`);
    process.exit(1);
  }
  return { ...parseEnv(readFileSync(file, 'utf8')), ...env };
}

/** The settings file an entry point reads: ENV_FILE, or the project's `.env`. */
export function envFileOf(env: Env = process.env): string {
  return env.ENV_FILE ? path.resolve(env.ENV_FILE) : ENV_FILE;
}

function readConfigOrExit(env: Env = readEnvironment()): Config {
  const parsed = parseConfig(env);
  if (parsed.ok) return parsed.config;
  console.error(formatConfigProblems(parsed.problems));
  process.exit(1);
}

/** Whether a content folder is the project's demo: its build shows the demo banner. */
export function isDemoContent(contentDir: string): boolean {
  return path.resolve(contentDir) === DEMO_CONTENT_DIR;
}

/**
 * The content folder start, build and publish read: CONTENT_DIR when set (in the environment or
 * `.env`), else `content/` when it exists, else the demo.
 */
function resolveContent(config: Config, env: Env): { config: Config; demo: boolean } {
  const own = env.CONTENT_DIR !== undefined || statSync(config.contentDir, { throwIfNoEntry: false }) !== undefined;
  const chosen = own ? config : { ...config, contentDir: DEMO_CONTENT_DIR };
  return { config: chosen, demo: isDemoContent(chosen.contentDir) };
}

/** The start-up line when the demo is served. */
export function describeDemo(): string {
  return `No content/ folder: serving the demo business of examples/demo/. To start your own: ${INIT_COMMAND}`;
}

/** Start-up warnings about settings that work but are probably not what an operator meant. */
export function listConfigWarnings(config: Config, env: Env): string[] {
  const warnings: string[] = [];
  if (!isLoopback(config.host) && !env.PUBLIC_URL) {
    warnings.push(
      `Warning: HOST=${config.host} accepts connections from other machines, but PUBLIC_URL is not set: every feed, canonical link and topic URL will say ${config.publicUrl}. Set PUBLIC_URL to the address people use (in .env).`,
    );
  }
  if (config.trustProxy === true) {
    warnings.push(
      'Warning: TRUST_PROXY=true believes X-Forwarded-For from anyone: every client then chooses its own address, for the rate limits and the access log. Name your proxy instead (TRUST_PROXY=loopback, uniquelocal or its address).',
    );
  }
  return warnings;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
