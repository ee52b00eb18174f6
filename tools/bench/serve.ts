/**
 * `npm run bench -- serve --against <git ref>` (issue 32 item 3): serving speed compared with another
 * version instead of with a target. Both versions build the same content, the other version's demo without its photos
 * (today's code reads older content; the older code refuses fields added since, such as jobs and locations), with their own build
 * script and serve it with their own sidecar, in default configuration (access log on, written to a
 * file); `wrk` (one thread, 32 connections) then measures, in alternating rounds so that the machine's
 * other load falls on both alike:
 *
 * - `/reviews.json` 304 revalidations (`If-None-Match` with the ETag each version gave);
 * - `/reviews.json` 200s, brotli;
 * - search (`min_rating=4&query=price&limit=20`);
 * - MCP `tools/call search_reviews` in a session (rate limit raised for both);
 * - and, once per round, nginx (one worker, its default access log) answering the same 304 from the
 *   files of today's build.
 *
 * Each row is today's figure ÷ the other version's (≥ 1: today is at least as fast). Beside requests per
 * second, each case gives the service's CPU time per request (all its threads, from /proc, on Linux),
 * which tells a slower version from a slower machine: on this 2-core machine a round's ratio moves by
 * ±0.2 and the CPU per request moves with it, so a few rounds' median is what to read.
 * The publish case
 * (serve-publish.ts) then runs on today's code alone. Without `--against`, the comparison is skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { execFile, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { builtOnce, currentTree, serveWith, treeAt, type Served, type Tree } from './serve-tree.ts';
import { NGINX, startNginx } from './serve-nginx.ts';
import { measurePublish } from './serve-publish.ts';
import { runWrk, type WrkRequest, type WrkResult } from './wrk.ts';
import type { BenchRow } from './types.ts';

const PUBLIC_URL = 'https://reviews.example.com';
const ROUNDS = Number(process.env.SERVE_ROUNDS ?? 3);
const SECONDS = Number(process.env.SERVE_SECONDS ?? 4);
const CONNECTIONS = 32;
const SEARCH = '/api/reviews/search?min_rating=4&query=price&limit=20';

type Case = { name: string; request: (served: Served) => Promise<WrkRequest> };

const CASES: Case[] = [
  {
    name: '/reviews.json 304',
    request: async ({ url }) => {
      const etag = (await fetch(`${url}/reviews.json`, { headers: { 'accept-encoding': 'br' } })).headers.get('etag')!;
      return { url: `${url}/reviews.json`, headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } };
    },
  },
  { name: '/reviews.json 200 (br)', request: async ({ url }) => ({ url: `${url}/reviews.json`, headers: { 'Accept-Encoding': 'br' } }) },
  { name: 'search', request: async ({ url }) => ({ url: `${url}${SEARCH}` }) },
  {
    name: 'MCP search_reviews',
    request: async ({ url }) => {
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const init = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
      });
      const session = init.headers.get('mcp-session-id')!;
      await init.arrayBuffer();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: { query: 'price', min_rating: 4, limit: 5 } } });
      return { url: `${url}/mcp`, method: 'POST', body, headers: { ...headers, 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' } };
    },
  },
];

export async function run(argv: string[] = process.argv.slice(2)): Promise<BenchRow[]> {
  const at = argv.indexOf('--against');
  const against = at === -1 ? undefined : argv[at + 1];
  const rows: BenchRow[] = [];
  // As proxy.ts does for nginx: a missing program is one line and a failed row, before any set-up.
  const missing = against === undefined ? [] : missingPrograms();
  if (missing.length > 0) {
    console.error(`  serve: --against needs ${missing.join(' and ')}, not found here (Debian: apt-get install wrk nginx; NGINX=<path> names another nginx)`);
    return [{ name: 'wrk and nginx installed', value: 0, unit: '', target: 'wrk on the PATH, nginx at NGINX', ok: false }];
  }
  if (against !== undefined) rows.push(...(await compare(currentTree(), await treeAt(against))));
  else console.error('  serve: no --against <git ref>, so only the publish case runs');
  if (!argv.includes('--no-publish')) rows.push(...(await measurePublish()));
  return rows;
}

/** What the comparison runs besides Node and cannot install: wrk, the load, and nginx, the yardstick (serve-nginx.ts). */
function missingPrograms(): string[] {
  const missing: string[] = [];
  if (spawnSync('wrk', ['-v']).error) missing.push('wrk');
  if (!existsSync(NGINX)) missing.push(`nginx (${NGINX})`);
  return missing;
}

async function compare(today: Tree, other: Tree): Promise<BenchRow[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-serve-'));
  const content = await copyDemoWithoutPhotos(path.join(other.dir, 'examples/demo'), path.join(work, 'content'));
  const served: Served[] = [];
  const rows: BenchRow[] = [];
  try {
    // Logs in a folder of their own: the sidecar watches the folder that holds `dist`.
    await mkdir(path.join(work, 'logs'));
    const versions = [other, today];
    const demoKey = (await promisify(execFile)('git', ['rev-parse', 'HEAD:examples/demo'], { cwd: other.dir })).stdout;
    for (const [i, tree] of versions.entries()) {
      const dist = path.join(work, `dist-${i}`);
      await symlink(await builtOnce(tree, content, `demo-${i === 0 ? 'against' : 'today'}`, demoKey, PUBLIC_URL), dist);
      served.push(
        await serveWith(tree, { DIST_DIR: dist, DATA_DIR: path.join(work, `data-${i}`), PUBLIC_URL, MCP_RATE_LIMIT: '1000000,1000000' }, path.join(work, 'logs', `log-${i}.jsonl`)),
      );
    }
    const nginx = await startNginx(path.join(work, 'dist-1'), path.join(work, 'nginx'));
    const loads: number[] = [];
    try {
      const results = new Map<string, WrkResult[][]>(CASES.map((c) => [c.name, [[], []]]));
      const cpuPerRequest = new Map<string, number[][]>(CASES.map((c) => [c.name, [[], []]]));
      const nginxResults: WrkResult[] = [];
      const requests = await Promise.all(CASES.map((c) => Promise.all(served.map((s) => c.request(s)))));
      const etag = (await fetch(`${nginx.url}/reviews.json`)).headers.get('etag');
      for (let round = 0; round < ROUNDS; round++) {
        loads.push(loadavg()[0]!);
        // Alternate which version goes first, so a change of load mid-round falls on both.
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const [c, test] of CASES.entries()) {
          for (const v of order) {
            const before = cpuMicros(served[v]!.child.pid);
            const result = await runWrk(requests[c]![v]!, { connections: CONNECTIONS, seconds: SECONDS });
            const after = cpuMicros(served[v]!.child.pid);
            results.get(test.name)![v]!.push(result);
            if (before !== undefined && after !== undefined && result.requests > 0) cpuPerRequest.get(test.name)![v]!.push((after - before) / result.requests);
          }
        }
        if (etag) nginxResults.push(await runWrk({ url: `${nginx.url}/reviews.json`, headers: { 'If-None-Match': etag } }, { connections: CONNECTIONS, seconds: SECONDS }));
        console.error(`  round ${round + 1} of ${ROUNDS} done (load ${loadavg()[0]!.toFixed(1)})`);
      }
      for (const test of CASES) {
        const [theirs, ours] = results.get(test.name)!;
        const ratios = ours!.map((r, i) => r.rps / theirs![i]!.rps);
        rows.push(
          { name: `${test.name}: ${other.label} req/s (per round)`, value: median(theirs!.map((r) => r.rps)), unit: `req/s (${theirs!.map((r) => r.rps.toFixed(0)).join(', ')})` },
          { name: `${test.name}: today req/s (per round)`, value: median(ours!.map((r) => r.rps)), unit: `req/s (${ours!.map((r) => r.rps.toFixed(0)).join(', ')})` },
          { name: `${test.name}: today p99 / ${other.label} p99`, value: median(ours!.map((r) => r.p99Ms)), unit: `ms / ${median(theirs!.map((r) => r.p99Ms)).toFixed(2)} ms` },
          {
            name: `${test.name}: today ÷ ${other.label} (median of rounds)`,
            value: median(ratios),
            unit: `× (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
            ...(test.name === 'search' || test.name.endsWith('304') ? { target: '≥ 1.0', ok: median(ratios) >= 1 } : {}),
          },
        );
        const [theirCpu, ourCpu] = cpuPerRequest.get(test.name)!;
        if (ourCpu!.length === ROUNDS && theirCpu!.length === ROUNDS) {
          const cpuRatios = theirCpu!.map((cpu, i) => cpu / ourCpu![i]!);
          rows.push({
            name: `${test.name}: CPU per request, ${other.label} ÷ today (median of rounds)`,
            value: median(cpuRatios),
            unit: `× (${median(ourCpu!).toFixed(1)} µs today, ${median(theirCpu!).toFixed(1)} µs ${other.label}; per round ${cpuRatios.map((r) => r.toFixed(2)).join(', ')})`,
          });
        }
        const bad = [...ours!, ...theirs!].reduce((n, r) => n + r.bad, 0);
        if (bad > 0) rows.push({ name: `${test.name}: answers that were not 2xx or 3xx`, value: bad, unit: 'answers' });
      }
      if (nginxResults.length > 0) {
        const ours = results.get(CASES[0]!.name)![1]!;
        const ratios = ours.map((r, i) => r.rps / nginxResults[i]!.rps);
        rows.push(
          { name: '/reviews.json 304: nginx req/s (per round)', value: median(nginxResults.map((r) => r.rps)), unit: `req/s (${nginxResults.map((r) => r.rps.toFixed(0)).join(', ')})` },
          { name: '/reviews.json 304: today ÷ nginx (median of rounds)', value: median(ratios), unit: `× (${ratios.map((r) => r.toFixed(2)).join(', ')})`, target: '≥ 0.4', ok: median(ratios) >= 0.4 },
        );
      }
    } finally {
      await nginx.stop();
    }
    rows.push({ name: 'load average (1 min) at the start of each round', value: median(loads), unit: `(${loads.map((l) => l.toFixed(1)).join(', ')}; ${availableParallelism()} cores)` });
  } finally {
    await Promise.all(served.map((s) => s.stop()));
    if (existsSync(work)) await rm(work, { recursive: true, force: true });
  }
  return rows;
}

/**
 * The demo content without its photos: a version from before photos were supported refuses a review
 * with `media`, and photos are not what this benchmark measures.
 */
async function copyDemoWithoutPhotos(demo: string, into: string): Promise<string> {
  await cp(demo, into, { recursive: true, filter: (source) => path.basename(source) !== 'media' || path.dirname(source) !== demo });
  for (const name of await readdir(path.join(into, 'reviews'))) {
    const file = path.join(into, 'reviews', name);
    const reviews = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
    for (const review of reviews) delete review.media;
    await writeFile(file, `${JSON.stringify(reviews, null, 2)}\n`);
  }
  return into;
}

/** CPU time (user and system, every thread) a process has used so far, in µs; undefined where /proc has no such file. */
function cpuMicros(pid: number | undefined): number | undefined {
  try {
    // Fields 14 and 15 (utime, stime), counted after the command name's closing parenthesis, in clock ticks of 10 ms.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

if (import.meta.main) console.table(await run());
