/**
 * `npm run bench -- sync`: `npm run sync -- google` (the CLI in a child process) against the local HTTPS
 * stand-in for Google (tools/lib/google-stand-in.ts, a test CA trusted through NODE_EXTRA_CA_CERTS):
 * a first sync of 10,000 reviews (200 pages of 50) into a folder with none, then an incremental sync
 * after 10 reviews changed (edited, their updateTime moved), which must read one page. Wall time includes
 * starting Node and the local HTTPS round trips; pages read are counted by the stand-in.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeReviews, startGoogleStandIn } from '../lib/google-stand-in.ts';
import { createTestCa } from '../lib/https-ca.ts';
import type { BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COUNT = 10_000;
const CHANGED = 10;

export async function run(): Promise<BenchRow[]> {
  const ca = createTestCa();
  const google = await startGoogleStandIn(ca);
  const work = await mkdtemp(path.join(tmpdir(), 'bench-sync-'));
  try {
    const contentDir = path.join(work, 'content');
    await mkdir(contentDir);
    await copyFile(path.join(ROOT, 'examples/demo/business.json'), path.join(contentDir, 'business.json'));
    const env = { ...process.env, ...google.env(), CONTENT_DIR: contentDir, DATA_DIR: path.join(work, 'data'), NODE_EXTRA_CA_CERTS: ca.certFile };
    google.reviews = makeReviews(COUNT);
    const rows: BenchRow[] = [];
    const measure = async (label: string, expect: string) => {
      google.takePageRequests();
      const result = await runChild(env);
      const pages = google.takePageRequests().length;
      if (!result.last.startsWith(expect)) throw new Error(`sync bench, ${label}: expected "${expect}…", got "${result.last}"`);
      rows.push({ name: `sync ${label}: wall time`, value: result.ms / 1000, unit: 's' });
      rows.push({ name: `sync ${label}: pages read`, value: pages, unit: 'pages' });
    };
    await measure(`first, ${COUNT.toLocaleString('en')} Google reviews`, `sync google: ${COUNT} added, 0 updated`);
    const base = Date.parse('2027-01-01T00:00:00Z');
    for (let i = 0; i < CHANGED; i++) {
      const at = COUNT - 1 - i * 97;
      const review = google.reviews[at]!;
      google.reviews[at] = { ...review, comment: `${review.comment} Edited: they came back.`, updateTime: new Date(base + i * 1000).toISOString() };
    }
    await measure(`incremental, ${CHANGED} changed`, `sync google: 0 added, ${CHANGED} updated`);
    return rows;
  } finally {
    await google.close();
    ca.remove();
    await rm(work, { recursive: true, force: true });
  }
}

function runChild(env: NodeJS.ProcessEnv): Promise<{ ms: number; last: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/sync/main.ts', 'google'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`sync child exited ${code}: ${stdout.slice(-2000)}`));
      resolve({ ms: performance.now() - started, last: stdout.trim().split('\n').at(-1) ?? '' });
    }),
  );
}

if (import.meta.main) console.table(await run());
