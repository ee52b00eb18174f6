/**
 * Once per test run, before any test file:
 * - PostgreSQL: the server at DATABASE_URL, or an embedded one started for the run
 *   (tests/helpers/postgres-server.ts). Test files read it with `inject('postgres')` through
 *   tests/websub/postgres.ts. DATABASE_URL is then removed from the environment, so a service a test
 *   starts uses PostgreSQL only when that test says so.
 * - Chromium: the bundled browser is unpacked once, so parallel test files never unpack it together
 *   (tools/lib/browser.ts).
 * - One private temporary folder (TMPDIR, inherited by the test workers and every child process they
 *   start), removed at the end, so builds, stores and callback servers made by tests leave nothing
 *   behind. Set last: the embedded server's data folder must stay reachable by the `postgres` account.
 * - An empty settings file as ENV_FILE, so an owner's .env (PUBLIC_URL, CONTENT_DIR...) never reaches
 *   a command a test runs: the suite passes the same on any clone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium } from '../tools/lib/browser.ts';
import { startTestPostgres } from './helpers/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL URL, or why there is none. */
    postgres: { ok: true; url: string; source: 'DATABASE_URL' | 'embedded' } | { ok: false; problem: string };
  }
}

export default async function setup(project: TestProject) {
  const givenUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  const postgres = await startTestPostgres(givenUrl);
  // Not in parallel with the above: unpacking points TMPDIR elsewhere for a moment. A failure here
  // is reported by the browser suites themselves, when they launch.
  await findChromium().catch(() => {});
  // One line, so a run shows which server it used.
  console.log(postgres.ok ? `PostgreSQL for the tests: ${postgres.source === 'embedded' ? 'embedded server at ' : 'DATABASE_URL, '}${new URL(postgres.url).host}` : `No PostgreSQL for the tests: ${postgres.problem}`);
  project.provide('postgres', postgres.ok ? { ok: true, url: postgres.url, source: postgres.source } : postgres);

  const dir = mkdtempSync(path.join(tmpdir(), 'reviews-tests-'));
  process.env.TMPDIR = dir;
  process.env.ENV_FILE = path.join(dir, 'tests.env');
  writeFileSync(process.env.ENV_FILE, '# The tests set every variable they use themselves.\n');
  return async () => {
    if (postgres.ok) await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
