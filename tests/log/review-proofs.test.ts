/**
 * Each served review's `.tlog-proof` (issue 40 item 5), from a real build: it verifies with a checker
 * written here from the text of C2SP tlog-proof, signed-note and RFC 6962 §2.1.1 (not from our code), its
 * inclusion with Go's tlog.CheckRecord (tools/tlog-check), and with the checker the browser and
 * `npm run verify --proof` run (core/log/proof-check.ts), which also weighs the witnesses' cosignatures.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { digestReview } from '../../core/log/review-digest.ts';
import { checkReviewProof, parseVerifierKeyText, type ProofTrust } from '../../core/log/proof-check.ts';
import { buildReviewProofs } from '../../core/log/review-proofs.ts';
import { buildLogFiles, encodeLogEntry, formatVerifierKey, generateSigner, type LogEntry, type ReviewLogEntry } from '../../core/log/index.ts';
import { formatPrivateKey, parsePrivateKey } from '../../core/log/note.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { logKeyFileOf, prepareReviewLog } from '../../scripts/lib/review-log.ts';
import { asCosigner, cosignCheckpoint, formatCosignerKey } from '../../core/log/cosignature.ts';
import { sha256 } from '../../core/log/sha256.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { runTlogProofCheck } from '../helpers/tlog-check.ts';
import { runScript } from '../helpers/run-script.ts';

type Review = { id: string; date: string; rating: number; text: string } & Record<string, unknown>;

let dist: string;
let reviews: Review[];
let vkey: string;

beforeAll(async () => {
  ({ distDir: dist } = await buildTestSite({ outDir: path.join(await mkdtemp(path.join(tmpdir(), 'review-proofs-')), 'dist') }));
  reviews = (JSON.parse(await readFile(path.join(dist, 'reviews.json'), 'utf8')) as { reviews: Review[] }).reviews;
  vkey = (await readFile(path.join(dist, 'log', 'vkey'), 'utf8')).trim();
}, 120_000);

// ---- A checker written from the specifications' text. ----

/** tlog-proof.md §Format. */
function parseProof(text: string) {
  const lines = text.split('\n');
  expect(lines[0]).toBe('c2sp.org/tlog-proof@v1');
  let i = 1;
  const extra = lines[i]!.startsWith('extra ') ? Buffer.from(lines[i++]!.slice(6), 'base64') : undefined;
  const index = /^index (0|[1-9]\d*)$/.exec(lines[i++]!);
  expect(index).not.toBeNull();
  const path: Buffer[] = [];
  while (lines[i] !== '') path.push(Buffer.from(lines[i++]!, 'base64'));
  return { extra, index: Number(index![1]), path, checkpoint: lines.slice(i + 1).join('\n') };
}

/** signed-note.md: the text before the last blank line, signed by `<name>+<hex id>+<base64(0x01 ‖ key)>`. */
function openSignedCheckpoint(note: string, vkeyText: string): { origin: string; size: number; root: Buffer } {
  const [name, idHex, keyB64] = [vkeyText.split('+')[0]!, vkeyText.split('+')[1]!, vkeyText.split('+').slice(2).join('+')];
  const key = Buffer.from(keyB64, 'base64');
  expect(key[0]).toBe(0x01);
  expect(createHash('sha256').update(`${name}\n`).update(key).digest().subarray(0, 4).toString('hex')).toBe(idHex);
  const cut = note.lastIndexOf('\n\n');
  const text = note.slice(0, cut + 1);
  const mine = note.slice(cut + 2).split('\n').filter((l) => l.startsWith(`\u2014 ${name} `));
  expect(mine.length).toBeGreaterThan(0);
  for (const line of mine) {
    const sig = Buffer.from(line.split(' ')[2]!, 'base64');
    expect(sig.subarray(0, 4).toString('hex')).toBe(idHex);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') }, format: 'jwk' });
    expect(verify(null, Buffer.from(text), publicKey, sig.subarray(4))).toBe(true);
  }
  const [origin, size, root] = text.split('\n');
  return { origin: origin!, size: Number(size), root: Buffer.from(root!, 'base64') };
}

const node = (l: Buffer, r: Buffer) => createHash('sha256').update(Buffer.of(1)).update(l).update(r).digest();

/** RFC 6962 §2.1.1's recursive PATH(m, D[n]), run backwards: the root the audit path makes for leaf m of n. */
function rootOfPath(m: number, n: number, leaf: Buffer, path: Buffer[]): Buffer {
  if (n === 1) {
    expect(path).toHaveLength(0);
    return leaf;
  }
  let k = 1;
  while (k * 2 < n) k *= 2;
  const last = path.at(-1)!;
  expect(last).toBeDefined();
  return m < k ? node(rootOfPath(m, k, leaf, path.slice(0, -1)), last) : node(last, rootOfPath(m - k, n - k, leaf, path.slice(0, -1)));
}

/** Step 1 of "Verifying a tlog proof", ours: the entry the extra carries, whose digest is the review's. */
function leafOf(extra: Buffer | undefined, review: Review): Buffer {
  const { entry } = JSON.parse(extra!.toString('utf8')) as { entry: string };
  const logged = JSON.parse(entry) as LogEntry;
  expect(logged).toMatchObject({ review_id: review.id, date: review.date, rating: review.rating });
  expect(['publish', 'update']).toContain(logged.action);
  expect((logged as { digest: string }).digest).toBe(digestReview(review));
  return createHash('sha256').update(Buffer.of(0)).update(entry).digest();
}

describe("each review's .tlog-proof", () => {
  it('is served for every review and verifies with a checker written from the specifications', async () => {
    const files = await readdir(path.join(dist, 'log', 'proof'));
    expect(files.sort()).toEqual(reviews.map((r) => `${r.id}.tlog-proof`).sort());
    const served = await readFile(path.join(dist, 'log', 'checkpoint'), 'utf8');
    for (const review of reviews) {
      const proof = parseProof(await readFile(path.join(dist, 'log', 'proof', `${review.id}.tlog-proof`), 'utf8'));
      expect(proof.checkpoint).toBe(served);
      const { size, root } = openSignedCheckpoint(proof.checkpoint, vkey);
      expect(rootOfPath(proof.index, size, leafOf(proof.extra, review), proof.path).equals(root)).toBe(true);
    }
  });

  it("binds its entry to the signed checkpoint by Go's tlog.CheckRecord", async () => {
    const keyFile = path.join(dist, '..', 'vkey.txt');
    await writeFile(keyFile, vkey);
    const report = await runTlogProofCheck(reviews.map((r) => path.join(dist, 'log', 'proof', `${r.id}.tlog-proof`)), keyFile);
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.entries!.map((e) => (JSON.parse(e) as ReviewLogEntry).review_id)).toEqual(reviews.map((r) => r.id));
    // A proof of another index: Go refuses it.
    const text = await readFile(path.join(dist, 'log', 'proof', `${reviews[0]!.id}.tlog-proof`), 'utf8');
    const moved = path.join(dist, '..', 'moved.tlog-proof');
    await writeFile(moved, text.replace(/^index (\d+)$/m, (_, n) => `index ${Number(n) === 0 ? 1 : 0}`));
    const refused = await runTlogProofCheck([moved], keyFile);
    expect(refused.ok).toBe(false);
    expect(refused.errors.join()).toMatch(/inclusion/);
  }, 60_000);

  it('is plain text, shares one _headers rule, and is not precompressed', async () => {
    const headers = await readFile(path.join(dist, '_headers'), 'utf8');
    expect(headers).toMatch(/^\/log\/proof\/\*\n {2}Content-Type: text\/plain; charset=utf-8$/m);
    const files = await readdir(path.join(dist, 'log', 'proof'));
    expect(files.filter((f) => !f.endsWith('.tlog-proof'))).toEqual([]);
  });
});

function keyOf(text: string, type: number): ProofTrust['log'] {
  const key = parseVerifierKeyText(text, type);
  if (!key.ok) throw new Error(key.reason);
  return key.value;
}

describe('checkReviewProof', () => {
  it('accepts the served review and names what no longer matches when its words change', async () => {
    const trust: ProofTrust = { log: keyOf(vkey, 1), witnesses: [], quorum: () => true };
    for (const review of reviews) {
      const text = await readFile(path.join(dist, 'log', 'proof', `${review.id}.tlog-proof`), 'utf8');
      expect(await checkReviewProof(text, trust, review)).toMatchObject({ ok: true, entry: { review_id: review.id } });
      const changed = await checkReviewProof(text, trust, { ...review, text: `${review.text} (edited)` });
      expect(changed).toMatchObject({ ok: false, reason: expect.stringContaining('is not the one logged at entry') });
    }
    const other = generateSigner('reviews.example.com/log');
    const proof = await readFile(path.join(dist, 'log', 'proof', `${reviews[0]!.id}.tlog-proof`), 'utf8');
    expect(await checkReviewProof(proof, { ...trust, log: keyOf(formatVerifierKey(other), 1) })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("is not signed by the business's key"),
    });
    expect(await checkReviewProof('c2sp.org/tlog-proof@v1\nindex 01\n\n', trust)).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be read') });
  });

  it("counts the witnesses' cosignatures that verify, and fails a quorum they do not meet, naming who is missing", async () => {
    const { signer, w1, w2, proof } = witnessedProof(reviews[0]!);
    const log = keyOf(formatVerifierKey(signer), 1);
    const witnesses = [keyOf(formatCosignerKey(w1), 4), keyOf(formatCosignerKey(w2), 4)];
    const one = await checkReviewProof(proof, { log, witnesses, quorum: (c) => c.size >= 1 });
    expect(one).toMatchObject({ ok: true, index: 0, size: 2, witnesses: [{ name: 'w1.example/witness', time: 1_772_600_000 }] });
    const both = await checkReviewProof(proof, { log, witnesses, quorum: (c) => c.size >= 2 });
    expect(both).toMatchObject({ ok: false, reason: expect.stringContaining('not w2.example/witness') });
    // A cosignature whose bytes were changed is not counted.
    const forged = proof.replace(/(\u2014 w1\.example\/witness \S{20})(\S)/u, (_, head: string, c: string) => `${head}${c === 'A' ? 'B' : 'A'}`);
    expect(await checkReviewProof(forged, { log, witnesses, quorum: (c) => c.size >= 1 })).toMatchObject({ ok: false });
  });
});

/** A proof of `review` at entry 0 of a two-entry log whose checkpoint w1 cosigned and w2 did not. */
function witnessedProof(review: Record<string, unknown> & { id: string; date: string; rating: number }) {
  const signer = generateSigner('reviews.example.com/log');
  const [w1, w2] = [asCosigner(generateSigner('w1.example/witness')), asCosigner(generateSigner('w2.example/witness'))];
  const entry: LogEntry = { action: 'publish', review_id: review.id, time: '2026-03-04T10:00:00Z', date: review.date, rating: review.rating, digest: digestReview(review) };
  const entries = [encodeLogEntry(entry), encodeLogEntry({ ...entry, review_id: 'other' })];
  const { files, tree } = buildLogFiles({ origin: signer.name, entries, signer });
  const note = files.get('checkpoint')!.toString('utf8');
  const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const cosigned = note + cosignCheckpoint(body, w1, 1_772_600_000);
  const proof = buildReviewProofs({ reviews: [review], entries, latest: new Map([[review.id, { index: 0 }]]), tree, checkpoint: cosigned }).get(review.id)!.toString('utf8');
  return { signer, w1, w2, proof };
}

describe('a publish that changes one review', () => {
  it("links every other review's proof from the build in service and makes that one's anew, all verifying", async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'review-proofs-publish-'));
    const contentDir = path.join(work, 'content');
    await cp(SMALL_CONTENT, contentDir, { recursive: true });
    const outDir = path.join(work, 'dist');
    await buildTestSite({ contentDir, outDir, own: true });
    const proofOf = (id: string) => path.join(outDir, 'log', 'proof', `${id}.tlog-proof`);
    const first = await readFile(path.join(outDir, 'log', 'checkpoint'), 'utf8');
    const before = new Map(await Promise.all(reviews.map(async (r) => [r.id, (await stat(proofOf(r.id))).ino] as const)));

    const file = path.join(contentDir, 'reviews', '2025-01.json');
    const month = JSON.parse(await readFile(file, 'utf8')) as Review[];
    month.find((r) => r.id === 'r-0003')!.text = 'Rewritten after the first build.';
    await writeFile(file, JSON.stringify(month));
    await buildTestSite({ contentDir, outDir, own: true });

    const served = await readFile(path.join(outDir, 'log', 'checkpoint'), 'utf8');
    expect(served).not.toBe(first);
    const now = (JSON.parse(await readFile(path.join(outDir, 'reviews.json'), 'utf8')) as { reviews: Review[] }).reviews;
    const key = parseVerifierKeyText(await readFile(path.join(outDir, 'log', 'vkey'), 'utf8'), 1);
    if (!key.ok) throw new Error(key.reason);
    for (const review of now) {
      const text = await readFile(proofOf(review.id), 'utf8');
      const linked = (await stat(proofOf(review.id))).ino === before.get(review.id);
      expect([review.id, linked]).toEqual([review.id, review.id !== 'r-0003']);
      expect(parseProof(text).checkpoint).toBe(linked ? first : served);
      expect(await checkReviewProof(text, { log: key.value, witnesses: [], quorum: () => true }, review)).toMatchObject({ ok: true });
    }
    // The reader's check of the rewritten one says it is a change, of what kind, and that its rating stayed.
    const reviewFile = path.join(work, 'r-0003.json');
    await writeFile(reviewFile, JSON.stringify(now.find((r) => r.id === 'r-0003')));
    const checked = await runScript(process.execPath, ['scripts/verify.ts', '--proof', proofOf('r-0003'), '--review', reviewFile, '--key', (await readFile(path.join(outDir, 'log', 'vkey'), 'utf8')).trim()], { env: { PATH: process.env.PATH ?? '' } });
    expect(checked.stdout).toMatch(/\nChange: not the review as first published; this entry changed it \([a-z_]+\), its rating unchanged\. Its earlier entries are in the log\.\n/);
    expect(checked.code).toBe(0);
  }, 180_000);
});

describe('proofs linked from the build in service, and when they are made again', () => {
  it('makes every proof again once a witness the served checkpoint lacked cosigns, and after a key rotation', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'review-proofs-held-'));
    const [outDir, dataDir] = [path.join(work, 'log-build'), path.join(work, 'data')];
    const publicUrl = 'https://reviews.example.com';
    const witness = asCosigner(generateSigner('w1.example/witness'));
    const cosignByWitness = async (note: string) => note + cosignCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1), witness, 1_772_600_000);
    const proofOf = (id: string) => path.join(outDir, 'log', 'proof', `${id}.tlog-proof`);
    const inodes = async () => new Map(await Promise.all(reviews.map(async (r) => [r.id, (await stat(proofOf(r.id))).ino] as const)));
    // One log step as the build takes it (scripts/lib/review-log.ts), the new folder then in the old one's place.
    let now = reviews as unknown as PublishedReview[];
    const publish = async (edited: string, day: number, cosign?: (note: string) => Promise<string>) => {
      now = now.map((r) => (r.id === edited ? { ...r, text: `${r.text} (edited on day ${day})` } : r));
      const step = await prepareReviewLog(now, new Map(), { publicUrl, outDir, dataDir, demo: false, now: () => new Date(Date.UTC(2026, 0, day)), fetch: async () => new Response(null, { status: 404 }) });
      if (!step.ok) throw new Error(step.message);
      await step.write(`${outDir}.next`, cosign);
      await step.commit();
      await rm(outDir, { recursive: true, force: true });
      await rename(`${outDir}.next`, outDir);
      return now;
    };
    const [a, b, c] = [reviews[0]!.id, reviews[1]!.id, reviews[2]!.id];
    await publish(a, 1);
    // The served checkpoint has no cosignature: after the witness's first one, every proof is made again.
    const beforeWitness = await inodes();
    await publish(a, 2, cosignByWitness);
    const afterWitness = await inodes();
    for (const review of reviews) expect(afterWitness.get(review.id)).not.toBe(beforeWitness.get(review.id));
    for (const review of reviews) expect(await readFile(proofOf(review.id), 'utf8')).toContain('\u2014 w1.example/witness ');
    // The same witness again: only the changed review's proof is new.
    await publish(b, 3, cosignByWitness);
    const linked = await inodes();
    for (const review of reviews) expect([review.id, linked.get(review.id) === afterWitness.get(review.id)]).toEqual([review.id, review.id !== b]);
    // A rotation: the old key listed as retired, a new one in its place; every proof is made again, under the new key.
    const keyFile = logKeyFileOf(dataDir, 'reviews.example.com/log');
    const old = parsePrivateKey(await readFile(keyFile, 'utf8'));
    if (!old.ok) throw new Error(old.reason);
    const rotated = generateSigner('reviews.example.com/log');
    await writeFile(`${keyFile}.previous`, `${formatVerifierKey(old.value)}\n`);
    await writeFile(keyFile, `${formatPrivateKey(rotated)}\n`);
    const served = await publish(c, 4, cosignByWitness);
    const afterRotation = await inodes();
    const key = parseVerifierKeyText(formatVerifierKey(rotated), 1);
    if (!key.ok) throw new Error(key.reason);
    for (const review of served) {
      expect(afterRotation.get(review.id)).not.toBe(linked.get(review.id));
      expect(await checkReviewProof(await readFile(proofOf(review.id), 'utf8'), { log: key.value, witnesses: [], quorum: () => true }, review)).toMatchObject({ ok: true });
    }
  }, 60_000);
});

describe('sha256.ts', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 70_000])('is node:crypto’s SHA-256 for %i bytes', (n) => {
    const data = Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff));
    expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

describe('npm run verify -- --proof', () => {
  const run = (...args: string[]) => runScript(process.execPath, ['scripts/verify.ts', ...args], { env: { PATH: process.env.PATH ?? '' } });

  it('exits 0 for the served review, 1 naming the problem for a changed one, 2 for unusable input', async () => {
    const review = reviews[0]!;
    const dir = path.join(dist, '..');
    const proof = path.join(dist, 'log', 'proof', `${review.id}.tlog-proof`);
    await writeFile(path.join(dir, 'honest.json'), JSON.stringify(review));
    await writeFile(path.join(dir, 'changed.json'), JSON.stringify({ review: { ...review, rating: review.rating === 5 ? 4 : 5, text: 'Changed\u001b[8m' } }));
    const honest = await run('--proof', proof, '--review', path.join(dir, 'honest.json'), '--key', vkey);
    expect(honest.stdout).toContain(`Proof: review ${review.id} is entry `);
    expect(honest.stdout).toContain('OK: this review is the one the log holds.');
    expect(honest.stdout).not.toContain('Change:');
    expect(honest.code).toBe(0);
    const changed = await run('--proof', proof, '--review', path.join(dir, 'changed.json'), '--key', vkey);
    expect(changed.stderr).toContain('problem: This review is not the one logged at entry');
    expect(changed.code).toBe(1);
    expect(changed.stdout + changed.stderr).not.toContain('\u001b');
    const missing = await run('--proof', proof, '--key', vkey);
    expect(missing.stderr).toContain('Usage: npm run verify -- --proof');
    expect(missing.code).toBe(2);
    const notJson = await run('--proof', proof, '--review', proof, '--key', vkey);
    expect(notJson.stderr).toContain('is not JSON');
    expect(notJson.code).toBe(2);
  });

  it('with --policy, takes the log key from the policy and fails a quorum the cosignatures do not meet, naming the witness', async () => {
    const review = reviews[0]!;
    const { signer, w1, w2, proof } = witnessedProof(review);
    const dir = await mkdtemp(path.join(tmpdir(), 'proof-policy-'));
    const file = (name: string, text: string) => writeFile(path.join(dir, name), text).then(() => path.join(dir, name));
    const proofFile = await file('r.tlog-proof', proof);
    const reviewFile = await file('r.json', JSON.stringify(review));
    const witnesses = `log ${formatVerifierKey(signer)}\nwitness one ${formatCosignerKey(w1)}\nwitness two ${formatCosignerKey(w2)}\n`;
    const anyOne = await run('--proof', proofFile, '--review', reviewFile, '--policy', await file('any.policy', `${witnesses}group g any one two\nquorum g\n`));
    expect(anyOne.stdout).toContain('Policy: its quorum is met; cosigned by w1.example/witness.');
    expect(anyOne.code).toBe(0);
    const both = await run('--proof', proofFile, '--review', reviewFile, '--policy', await file('all.policy', `${witnesses}group g all one two\nquorum g\n`));
    expect(both.stderr).toContain('problem: The checkpoint lacks the witnesses the policy asks for: 1 cosigned, not w2.example/witness.');
    expect(both.code).toBe(1);
    const otherLog = await run('--proof', proofFile, '--review', reviewFile, '--policy', await file('other.policy', `log ${formatVerifierKey(generateSigner('reviews.example.com/log'))}\nquorum none\n`));
    expect(otherLog.stderr).toContain("problem: The checkpoint is not signed by the business's key");
    expect(otherLog.code).toBe(1);
    const broken = await run('--proof', proofFile, '--review', reviewFile, '--policy', await file('broken.policy', 'quorum nobody\n'));
    expect(broken.stderr).toContain('is not a tlog-policy');
    expect(broken.code).toBe(2);
  });
});
