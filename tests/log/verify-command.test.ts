/**
 * `npm run verify -- <url>` (scripts/verify.ts) against a site copy on a plain static server: a log
 * written by core/log and a /reviews.json beside it, changed the ways a dishonest or broken copy could be.
 * The command is run as a user runs it: a child process, the network, exit code and words.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestReview, encodeLogEntry, formatVerifierKey, generateSigner, type LogEntry } from '../../core/log/index.ts';
import { writeLogSite } from '../helpers/log-site.ts';
import { runScript } from '../helpers/run-script.ts';
import { startStaticServer, type StaticServer } from '../helpers/static-server.ts';
import { VERIFY_FILES } from './verify-files.ts';

const ORIGIN = 'reviews.example.com/log';
const signer = generateSigner(ORIGIN);
const TIME = '2026-01-02T03:04:05Z';

const review = (id: string, rating: number, text: string) => ({
  id, rating, date: '2025-03-01', text, title: null, author: 'Robin', source: 'direct', verified: true,
  technicians: [], services: [], service_area: null, response: null, url: `https://reviews.example.com/reviews/2025/03/#${id}`,
  updated: TIME, media: [], aspects: [],
});
const REVIEWS = [review('r-1', 5, 'Quick and tidy.'), review('r-2', 1, 'Late twice.'), review('r-3', 3, 'Fine.')] as const;
const publish = (r: ReturnType<typeof review>): LogEntry => ({ action: 'publish', review_id: r.id, time: TIME, date: r.date, rating: r.rating, digest: digestReview(r) });
const ENTRIES: LogEntry[] = [
  ...REVIEWS.map(publish),
  { ...publish(review('r-4', 1, 'Never came.')) },
  { action: 'withdraw', review_id: 'r-4', time: TIME, date: '2025-03-01', rating: 1, reason: 'customer_request' },
];

let work: string;
let server: StaticServer;
let site: string;

/** Writes a site copy: the log of `entries` and `reviews` as /reviews.json. */
function writeSite(entries: readonly LogEntry[], reviews: readonly object[], key = signer) {
  return writeLogSite(site, { entries: entries.map(encodeLogEntry), reviews, signer: key });
}

function verify(args: string[] = [], state = path.join(work, 'state.json')) {
  return runScript(process.execPath, ['scripts/verify.ts', server.url, '--state', state, ...args], { env: { PATH: process.env.PATH ?? '' } });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'verify-command-'));
  site = path.join(work, 'site');
  await mkdir(site);
  server = await startStaticServer(site);
});

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run verify', () => {
  it('accepts an honest copy, lists the withdrawals, warns that the served key is not trusted and remembers the checkpoint', async () => {
    await writeSite(ENTRIES, REVIEWS);
    const run = await verify([], path.join(work, 'honest.json'));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: checking against the key the site itself serves (${server.url}/log/vkey)`);
    expect(run.stdout).toContain(`Log ${ORIGIN}: 5 entries, signed by ${formatVerifierKey(signer)}.`);
    expect(run.stdout).toContain('Reviews: all 3 in');
    expect(run.stdout).toContain('Withdrawals: 1.\n  entry 4, 2026-01-02T03:04:05Z: a 1-star review of 2025-03-01, reason: customer_request');
    expect(run.stdout).toContain('History: first visit: checkpoint remembered.');
    const state = JSON.parse(await readFile(path.join(work, 'honest.json'), 'utf8'));
    expect(state.logs[server.url].checkpoint).toBe(await readFile(path.join(site, 'log/checkpoint'), 'utf8'));
  });

  it('with --key: no warning; a checkpoint signed by another key cannot be verified', async () => {
    await writeSite(ENTRIES, REVIEWS);
    const keyFile = path.join(work, 'vkey');
    await writeFile(keyFile, formatVerifierKey(signer));
    const good = await verify(['--key', keyFile], path.join(work, 'key.json'));
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    const other = generateSigner(ORIGIN);
    const bad = await verify(['--key', formatVerifierKey(other)], path.join(work, 'key.json'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Cannot verify: the checkpoint .*\/log\/checkpoint: .*signature/m);
  });

  it('names a review edited in the copy of /reviews.json', async () => {
    await writeSite(ENTRIES, [REVIEWS[0], { ...REVIEWS[1], rating: 4 }, REVIEWS[2]]);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("problem: review r-2 does not match its latest entry (1): it changed behind the log's back");
    expect(run.stdout).toContain('FAILED: 1 problem(s).');
  });

  it('names a review served without an entry, one served after its withdrawal, and one dropped without a withdrawal', async () => {
    await writeSite(ENTRIES, [REVIEWS[0], review('r-9', 5, 'Great!'), review('r-4', 1, 'Never came.')]);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'warning: checking against the key the site itself serves (' + server.url + '/log/vkey): anyone who can change the site can change it. Pass --key with the key the owner publishes elsewhere.',
      'problem: review r-9 is served but has no entry in the log: a missing entry',
      'problem: review r-4 is served but entry 4 withdrew it',
      'problem: review r-2 is published by entry 1 but not served, and no entry withdrew it',
      'problem: review r-3 is published by entry 2 but not served, and no entry withdrew it',
    ]);
  });

  it('names an entry bundle missing an entry, and a changed hash tile', async () => {
    await writeSite(ENTRIES, REVIEWS);
    const bundle = await readFile(path.join(site, 'log/tile/entries/000.p/5'));
    const first = 2 + bundle.readUInt16BE(0);
    await writeFile(path.join(site, 'log/tile/entries/000.p/5'), bundle.subarray(first));
    const dropped = await verify();
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toContain('problem: entry bundle tile/entries/000.p/5 holds 4 entries, not 5: a missing entry');

    await writeSite(ENTRIES, REVIEWS);
    await writeFile(path.join(site, 'log/tile/0/000.p/5'), Buffer.alloc(5 * 32));
    const tile = await verify();
    expect(tile.code).toBe(1);
    expect(tile.stderr).toContain('problem: hash tile tile/0/000.p/5 is not the one the entries make');
  });

  it('proves each new checkpoint extends the last one seen, and names a fork and a rollback', async () => {
    const state = path.join(work, 'history.json');
    await writeSite(ENTRIES.slice(0, 3), REVIEWS);
    expect((await verify([], state)).code).toBe(0);
    await writeSite(ENTRIES, REVIEWS);
    const grown = await verify([], state);
    expect(grown.code).toBe(0);
    expect(grown.stdout).toMatch(/History: extends the checkpoint of 3 entries seen last time \(consistency proof of \d+ hashes\)\./);

    // The same key signs a history where r-2's one star became five: the log the verifier saw is gone.
    const rewritten = [ENTRIES[0]!, publish({ ...REVIEWS[1], rating: 5 }), ...ENTRIES.slice(2)];
    await writeSite(rewritten, [REVIEWS[0], { ...REVIEWS[1], rating: 5 }, REVIEWS[2]]);
    const fork = await verify([], state);
    expect(fork.code).toBe(1);
    expect(fork.stderr).toContain('problem: the log does not extend the tree of 5 entries seen last time: a fork');
    // The remembered checkpoint stays the one it could trust: the next run still says so.
    expect((await verify([], state)).stderr).toContain('a fork');

    await writeSite(ENTRIES.slice(0, 4), REVIEWS);
    const shrunk = await verify([], state);
    expect(shrunk.code).toBe(1);
    expect(shrunk.stderr).toContain('problem: the log shrank from 5 entries, seen last time, to 4: a fork or a rollback');
    // Six runs of a child process: on a loaded machine, more than the default 30 s.
  }, 180_000);

  it('runs from a copy of its own few files, outside the project (docs/verification.md)', async () => {
    await writeSite(ENTRIES, REVIEWS);
    const alone = path.join(work, 'alone');
    for (const file of VERIFY_FILES) {
      await mkdir(path.dirname(path.join(alone, file)), { recursive: true });
      await cp(file, path.join(alone, file));
    }
    // What `npm install zod@4` in that folder gives (the suite runs offline): the package, which has no dependencies.
    await cp('node_modules/zod', path.join(alone, 'node_modules/zod'), { recursive: true });
    const run = await runScript(process.execPath, [path.join(alone, 'scripts/verify.ts'), server.url, '--state', path.join(work, 'alone.json')], { env: { PATH: process.env.PATH ?? '' }, cwd: alone });
    expect(run.stdout).toContain('OK: the service publishes what its log says.');
    expect(run.code).toBe(0);
  });

  it('says what is wrong when there is no log, in one line and exit 2', async () => {
    await rm(site, { recursive: true, force: true });
    await mkdir(site);
    const run = await verify();
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`Cannot verify: ${server.url}/log/vkey is not found (404)`);
    const usage = await runScript(process.execPath, ['scripts/verify.ts'], { env: { PATH: process.env.PATH ?? '' } });
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe('Usage: npm run verify -- <url> [--key <vkey or file>] [--state <file>] [--accept-key <vkey>] [--deadline <seconds>] [--policy <tlog-policy file or url>]');
  });
});
