/**
 * Requests per second over loopback against the real sidecar in its own process: /reviews.json
 * 200s (1k-review dataset, brotli), 304 revalidations, and search at 100k reviews.
 * Target: 304 revalidations above 10,000 requests per second on this 2-core machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildSite } from '../../scripts/build.ts';
import { ensureBenchContent } from './bench-content.ts';
import { startSidecarProcess } from './serve-child.ts';
import type { BenchRow } from './types.ts';

const DURATION_S = 6;

async function load(url: string, options: { headers?: Record<string, string>; requests?: { path: string }[] } = {}) {
  const result = await autocannon({ url, connections: 50, duration: DURATION_S, headers: options.headers, requests: options.requests });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

async function withBuild<T>(count: number, fn: (url: string) => Promise<T>): Promise<T> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-http-'));
  const distDir = path.join(work, 'dist');
  const built = await buildSite({ contentDir: await ensureBenchContent(count), publicUrl: 'https://reviews.example.com', outDir: distDir });
  if (!built.ok) throw new Error(built.message);
  const sidecar = await startSidecarProcess({ DIST_DIR: distDir, DATA_DIR: path.join(work, 'data') });
  try {
    return await fn(sidecar.url);
  } finally {
    await sidecar.stop();
    await rm(work, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await withBuild(1_000, async (url) => {
    const first = await fetch(`${url}/reviews.json`, { headers: { 'Accept-Encoding': 'br' } });
    const etag = first.headers.get('etag')!;
    const ok = await load(`${url}/reviews.json`, { headers: { 'Accept-Encoding': 'br' } });
    rows.push({ name: '/reviews.json 200 (1k reviews, br): requests/s', value: ok.rps, unit: 'req/s' });
    const notModified = await load(`${url}/reviews.json`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } });
    if (notModified.non2xx !== 0 && notModified.rps === 0) throw new Error('304 benchmark received no answers');
    rows.push({ name: '/reviews.json 304 revalidation: requests/s', value: notModified.rps, unit: 'req/s', target: '> 10000', ok: notModified.rps > 10_000 });
    rows.push({ name: '/reviews.json 304 revalidation: latency p99', value: notModified.p99, unit: 'ms' });
  });
  await withBuild(100_000, async (url) => {
    const queries = ['rating=5', 'min_rating=4&limit=50', 'query=on%20time', 'query=leak&rating=1', 'since=2026-01-01&until=2026-03-31', 'mentions_service=ac-repair', 'query=price&min_rating=3', ''];
    const result = await load(url, { requests: queries.map((q) => ({ path: `/api/reviews/search?${q}` })) });
    rows.push({ name: 'search at 100k reviews (mixed filters): requests/s', value: result.rps, unit: 'req/s' });
    rows.push({ name: 'search at 100k reviews (mixed filters): latency p99', value: result.p99, unit: 'ms' });
  });
  return rows;
}

if (import.meta.main) console.table(await run());
