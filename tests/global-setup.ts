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
 * - Node's compile cache (NODE_COMPILE_CACHE) for every process the tests start, in a folder of the clone
 *   emptied as a run starts: not in the run's temporary folder, where the test processes, writing their
 *   cache as they exit, could still be adding to it while it was removed.
 * - An empty settings file as ENV_FILE, so an owner's .env (PUBLIC_URL, CONTENT_DIR...) never reaches
 *   a command a test runs: the suite passes the same on any clone.
 * - A folder for the run's shared site builds (`inject('siteBuilds')`, tests/helpers/site-build.ts), and a
 *   count of every full site build the run made, in a test process or a command it ran, printed at the
 *   end (each build makes a folder of its own in the build cache, which is watched).
 */
import { mkdirSync, mkdtempSync, watch, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium } from '../tools/lib/browser.ts';
import { startTestPostgres } from './helpers/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL URL, or why there is none. */
    postgres: { ok: true; url: string; source: 'DATABASE_URL' | 'embedded' } | { ok: false; problem: string };
    /** Where tests/helpers/site-build.ts keeps the run's one build of each distinct site. */
    siteBuilds: string;
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
  // Each process the run starts loads its modules faster with it: a build of the small content took 2.65 s
  // instead of 3.02 s (2.91 s of CPU instead of 3.30 s; means of six runs of each, in turn, at a load average of 3).
  process.env.NODE_COMPILE_CACHE = path.resolve('node_modules/.cache/node-compile-tests');
  await rm(process.env.NODE_COMPILE_CACHE, { recursive: true, force: true });
  process.env.ENV_FILE = path.join(dir, 'tests.env');
  writeFileSync(process.env.ENV_FILE, '# The tests set every variable they use themselves.\n');
  const siteBuilds = path.join(dir, 'site-builds');
  mkdirSync(siteBuilds);
  project.provide('siteBuilds', siteBuilds);
  const builds = countSiteBuilds();
  return async () => {
    console.log(`Full site builds in this run: ${builds.count()}`);
    builds.close();
    if (postgres.ok) await postgres.stop();
    // Not rmSync: removing a run's tens of thousands of files takes seconds, and while the event loop is
    // held vitest can take its test processes' exit for a hang ("Timeout terminating forks worker").
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * Every site build, in any process of this clone, makes a folder named by its stamp in the build cache
 * (scripts/build.ts BUILD_CACHE_DIR) and removes it when done: the distinct names seen are the builds.
 */
function countSiteBuilds(): { count: () => number; close: () => void } {
  const cache = path.resolve('node_modules/.cache/reviews-build');
  mkdirSync(cache, { recursive: true });
  const seen = new Set<string>();
  const watcher = watch(cache, (_event, name) => {
    if (name && !name.includes(path.sep)) seen.add(name);
  });
  return { count: () => seen.size, close: () => watcher.close() };
}
