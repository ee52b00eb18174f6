/**
 * The build's review log step (scripts/lib/review-log.ts, docs/log.md) on real folders and a real HTTP
 * server: the key is made once and kept 0600, LOG_SIGNING_KEY wins, a fresh machine continues the log
 * published at PUBLIC_URL, and a build that cannot continue the one history of its address refuses,
 * saying what to do, instead of starting a second one. The demo's log never mixes with an owner's.
 */
import { cp, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPrivateKey, formatVerifierKey, generateSigner, openLogFiles, verifyConsistency, type LogEntry } from '../../core/log/index.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { logKeyFileOf, prepareReviewLog, type ReviewLogOptions } from '../../scripts/lib/review-log.ts';

const review = (id: string, rating: number, text = 'Fine work.') =>
  ({ id, rating, date: '2025-03-01', text, title: null, author: 'Kim', source: 'direct', verified: true, service_area: null, response: null }) as unknown as PublishedReview;

async function newMachine() {
  const root = await mkdtemp(path.join(tmpdir(), 'review-log-'));
  return { root, outDir: path.join(root, 'dist'), dataDir: path.join(root, 'data') };
}

/** One build's log step, written into `outDir/log/` as the build would swap it in. */
async function publish(reviews: PublishedReview[], options: ReviewLogOptions, reasons = new Map()) {
  const lines: string[] = [];
  const step = await prepareReviewLog(reviews, reasons, { fetch: async () => new Response(null, { status: 404 }), ...options });
  if (!step.ok) return { ok: false as const, message: step.message };
  await rm(path.join(options.outDir, 'log'), { recursive: true, force: true });
  await step.write(options.outDir);
  const notice = await step.commit();
  if (notice) lines.push(notice);
  return { ok: true as const, step, lines };
}

const openLog = (dir: string, origin = 'reviews.example.com/log') => openLogFiles(async (p) => readFile(path.join(dir, 'log', p)).catch(() => undefined), origin);
const actions = (entries: LogEntry[]) => entries.map((e) => `${e.action} ${e.action === 'job' ? e.locator : e.review_id}${e.action === 'withdraw' ? ` ${e.reason}` : ''}`);

describe('the review log step', () => {
  const base = { publicUrl: 'https://reviews.example.com', demo: false };

  it('makes a key once (0600, named where it is), appends only changes, and never rewrites an entry', async () => {
    const m = await newMachine();
    const options = { ...base, ...m, now: () => new Date('2026-01-01T00:00:00Z') };
    const first = await publish([review('a', 5), review('b', 1)], options);
    expect(first.ok && first.lines[0]).toMatch(/Created the review log's signing key .* in .*log-keys.*Back this file up/);
    const keyFile = logKeyFileOf(m.dataDir, 'reviews.example.com/log');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const checkpoint = await readFile(path.join(m.outDir, 'log/checkpoint'), 'utf8');
    expect(checkpoint).not.toContain('PRIVATE');

    const again = await publish([review('a', 5), review('b', 1)], { ...options, now: () => new Date('2026-01-02T00:00:00Z') });
    expect(again.ok && again.lines).toEqual([]);
    expect(await readFile(path.join(m.outDir, 'log/checkpoint'), 'utf8')).toBe(checkpoint);

    const hidden = await publish([review('a', 5, 'Fine work, and tidy.')], { ...options, now: () => new Date('2026-01-03T00:00:00Z') }, new Map([['b', 'spam']]));
    expect(hidden.ok && actions(hidden.step.entries)).toEqual(['publish a', 'publish b', 'update a', 'withdraw b spam']);
    expect(hidden.ok && hidden.step.times.get('a')).toBe('2026-01-03T00:00:00Z');
  });

  it('signs with LOG_SIGNING_KEY when given, and writes no key file', async () => {
    const m = await newMachine();
    const signer = generateSigner('reviews.example.com/log');
    const done = await publish([review('a', 4)], { ...base, ...m, signingKey: formatPrivateKey(signer) });
    expect(done.ok && done.lines).toEqual([]);
    expect((await readFile(path.join(m.outDir, 'log/vkey'), 'utf8')).trim()).toBe(formatVerifierKey(signer));
    await expect(stat(logKeyFileOf(m.dataDir, 'reviews.example.com/log'))).rejects.toThrow();
    const other = await publish([review('a', 4)], { ...base, ...m, signingKey: formatPrivateKey(generateSigner('other.example/log')) });
    expect(other).toMatchObject({ ok: false, message: expect.stringContaining('is for other.example/log') });
  });

  it('refuses to continue without the key, with another key, or from a damaged log; a listed retired key rotates', async () => {
    const m = await newMachine();
    await publish([review('a', 5)], { ...base, ...m });
    const keyFile = logKeyFileOf(m.dataDir, 'reviews.example.com/log');
    const before = await openLog(m.outDir);

    await rename(keyFile, `${keyFile}.lost`);
    expect(await publish([review('a', 5)], { ...base, ...m })).toMatchObject({ ok: false, message: expect.stringMatching(/does not have its key\. Set LOG_SIGNING_KEY, or put the key file back at/) });

    const newKey = generateSigner('reviews.example.com/log');
    expect(await publish([review('a', 5)], { ...base, ...m, signingKey: formatPrivateKey(newKey) })).toMatchObject({ ok: false, message: expect.stringContaining('is signed by') });
    await writeFile(`${keyFile}.previous`, `${formatVerifierKey(before.ok === true ? before.value.verifier : newKey)}\n`);
    const rotated = await publish([review('a', 5), review('c', 2)], { ...base, ...m, signingKey: formatPrivateKey(newKey) });
    expect(rotated.ok).toBe(true);
    const after = await openLog(m.outDir);
    if (before.ok !== true || after.ok !== true) throw new Error('no log');
    expect(formatVerifierKey(after.value.verifier)).toBe(formatVerifierKey(newKey));
    expect(verifyConsistency(1, 2, after.value.tree.consistencyProof(1), before.value.checkpoint.rootHash, after.value.checkpoint.rootHash)).toBe(true);

    const bundle = path.join(m.outDir, 'log/tile/entries/000.p/2');
    await writeFile(bundle, (await readFile(bundle, 'latin1')).replace('"rating":2', '"rating":3'), 'latin1');
    expect(await publish([review('a', 5)], { ...base, ...m, signingKey: formatPrivateKey(newKey) })).toMatchObject({ ok: false, message: expect.stringContaining('do not hash to') });
  });

  it('continues on a fresh machine the log published at PUBLIC_URL, and refuses when it cannot read it', async () => {
    const published = await newMachine();
    const server = createServer(async (req, res) => {
      const file = path.join(published.outDir, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      const body = await readFile(file).catch(() => undefined);
      res.writeHead(body ? 200 : 404).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const options = (m: { outDir: string; dataDir: string }) => ({ publicUrl, demo: false, ...m, fetch });
      const signerForPort = generateSigner(`127.0.0.1:${(server.address() as AddressInfo).port}/log`);
      expect(await publish([review('a', 5), review('b', 3)], { ...options(published), signingKey: formatPrivateKey(signerForPort) })).toMatchObject({ ok: true });

      const fresh = await newMachine();
      const continued = await publish([review('a', 5)], { ...options(fresh), signingKey: formatPrivateKey(signerForPort) });
      expect(continued.ok && actions(continued.step.entries)).toEqual(['publish a', 'publish b', 'withdraw b other']);

      const keyless = await newMachine();
      expect(await publish([review('a', 5)], options(keyless))).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be continued: this machine does not have its key/) });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const unreachable = await newMachine();
    const key = generateSigner('127.0.0.1:9/log');
    expect(await publish([review('a', 5)], { publicUrl: 'http://127.0.0.1:9', demo: false, ...unreachable, fetch, signingKey: formatPrivateKey(key) })).toMatchObject({
      ok: false,
      message: expect.stringContaining('but not the last published log'),
    });
  });

  it('starts the owner\'s own log when PUBLIC_URL still serves the demo\'s log (the owner\'s first publish)', async () => {
    const demoSite = await newMachine();
    const server = createServer(async (req, res) => {
      const body = await readFile(path.join(demoSite.outDir, decodeURIComponent(new URL(req.url!, 'http://x').pathname))).catch(() => undefined);
      res.writeHead(body ? 200 : 404).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await publish([review('demo-1', 5), review('demo-2', 2)], { publicUrl, demo: true, ...demoSite, fetch })).toMatchObject({ ok: true });
      const demoKey = (await readFile(path.join(demoSite.outDir, 'log/vkey'), 'utf8')).trim();

      const owner = await newMachine();
      const first = await publish([review('mine', 4)], { publicUrl, demo: false, ...owner, fetch });
      expect(first.ok && actions(first.step.entries)).toEqual(['publish mine']);
      expect(first.ok && first.lines[0]).toMatch(/Created the review log's signing key/);
      expect((await readFile(path.join(owner.outDir, 'log/vkey'), 'utf8')).trim()).not.toBe(demoKey);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('starts the log of a new address (PUBLIC_URL changed) beside the old address\'s log, which it leaves alone', async () => {
    const m = await newMachine();
    await publish([review('a', 5), review('b', 1)], { ...base, ...m });
    const moved = await publish([review('a', 5)], { ...base, ...m, publicUrl: 'https://moved.example.com/reviews/' });
    expect(moved.ok && actions(moved.step.entries)).toEqual(['publish a']);
    expect((await readFile(path.join(m.outDir, 'log/checkpoint'), 'utf8')).split('\n', 2)).toEqual(['moved.example.com/reviews/log', '1']);
    expect(moved.ok && moved.lines[0]).toMatch(/Created the review log's signing key for moved\.example\.com\/reviews\/log/);
    // The old address's key is kept for the day the owner moves back.
    expect((await stat(logKeyFileOf(m.dataDir, 'reviews.example.com/log'))).isFile()).toBe(true);
  });

  it('never puts a demo entry in an owner log built into the same folder', async () => {
    const m = await newMachine();
    await publish([review('demo-1', 5), review('demo-2', 2)], { ...base, ...m, demo: true });
    const demo = await openLog(m.outDir);
    expect(demo.ok === true && demo.value.decoded.length).toBe(2);
    const owner = await publish([review('mine', 4)], { ...base, ...m });
    expect(owner.ok && actions(owner.step.entries)).toEqual(['publish mine']);
    // The demo's own log is the same on every machine.
    const other = await newMachine();
    await publish([review('demo-1', 5), review('demo-2', 2)], { ...base, ...other, demo: true });
    await cp(path.join(other.outDir, 'log'), path.join(other.root, 'copy'), { recursive: true });
    expect(await readFile(path.join(other.outDir, 'log/vkey'), 'utf8')).toBe((await openLog(other.outDir)).ok === true ? await readFile(path.join(other.root, 'copy/vkey'), 'utf8') : '');
  });
});
