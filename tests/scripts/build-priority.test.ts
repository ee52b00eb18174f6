/**
 * A build gives way to a service on the same machine (issue 46): `npm run build` lowers its own process,
 * and the Astro process a build starts runs at nice 10 (sidecar/thread-priority.ts) whoever started the
 * build. Watched from outside, as `top` would: the nice value of every thread of the build's process tree,
 * read from /proc every millisecond or two while the build runs. (The analysis threads:
 * analyze-in-threads.test.ts.)
 *
 * Where the test runner itself runs at nice 10 or more, every thread it starts does too, and this shows less.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from '../../sidecar/thread-priority.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import { describeNices, niceHistory, niceOf, sampleTree, type Task } from '../helpers/process-tree.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs `args` with Node, sampling its process tree until it exits: its pid and every sample, in order. */
async function sampleWhileRunning(args: string[], env: NodeJS.ProcessEnv): Promise<{ pid: number; samples: Task[][] }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const sampler = sampleTree(child.pid!);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const samples = await sampler.stop();
  expect(code, output).toBe(0);
  return { pid: child.pid!, samples };
}

const ownNice = niceOf('/proc/self/stat');
const lowered = Math.max(ownNice, BACKGROUND_NICE);
const isAstro = (task: Task) => task.command.includes('astro-build-child.ts');

let work: string;
const env = (name: string) => ({
  ...process.env,
  ENV_FILE: 'none',
  CONTENT_DIR: SMALL_CONTENT,
  DIST_DIR: path.join(work, name, 'dist'),
  DATA_DIR: path.join(work, name, 'data'),
  PUBLIC_URL: 'https://reviews.example.com',
});

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'build-priority-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the build at a lower CPU priority', () => {
  it('npm run build lowers every thread of its process, and its Astro process starts lowered', async () => {
    const { pid, samples } = await sampleWhileRunning(['scripts/build.ts'], env('entry'));
    // Its own threads, once the process lowered itself (after loading its modules), stay lowered.
    const from = samples.findIndex((s) => s.some((t) => t.tid === pid && t.nice >= lowered));
    expect(from).toBeGreaterThanOrEqual(0);
    const after = samples.slice(from).flat();
    expect(after.filter((t) => t.pid === pid && t.nice < lowered)).toEqual([]);
    // What it starts afterwards begins at its priority: no sample of the Astro process is ever higher.
    const astro = after.filter(isAstro);
    expect(astro.length).toBeGreaterThan(0);
    expect(astro.filter((t) => t.nice < lowered)).toEqual([]);
  }, 600_000);

  it('a build started in a process that serves afterwards (npm start) lowers its Astro process, not that process', async () => {
    const script = path.join(work, 'build-in-process.mjs');
    await writeFile(
      script,
      `import { buildSite } from ${JSON.stringify(path.join(ROOT, 'scripts/build.ts'))};
      const built = await buildSite({ contentDir: process.env.CONTENT_DIR, outDir: process.env.DIST_DIR, dataDir: process.env.DATA_DIR, publicUrl: process.env.PUBLIC_URL });
      if (!built.ok) { console.error(built.message); process.exit(1); }`,
    );
    const { pid, samples } = await sampleWhileRunning([script], env('in-process'));
    // The calling process keeps its priority: it serves next.
    expect(niceHistory(samples, (t) => t.tid === pid).get(pid)!.every((nice) => nice === ownNice)).toBe(true);
    // Each thread of the Astro process is lowered as soon as it starts its own code, and stays lowered.
    const threads = niceHistory(samples, isAstro);
    expect(threads.size).toBeGreaterThan(0);
    for (const [tid, nices] of threads) {
      const first = nices.findIndex((nice) => nice >= lowered);
      expect(first, `thread ${tid}: ${describeNices(nices)}`).toBeGreaterThanOrEqual(0);
      expect(nices.slice(first).every((nice) => nice >= lowered), `thread ${tid}: ${describeNices(nices)}`).toBe(true);
    }
  }, 600_000);
});
