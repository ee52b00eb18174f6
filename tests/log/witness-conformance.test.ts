/**
 * The service's witness against C2SP tlog-witness v1.0 (add-checkpoint and the monitoring checkpoint),
 * tlog-cosignature (Ed25519 `cosignature/v1`) and signed-note, over real HTTP. Everything this file
 * signs, hashes and checks is written here from the specs' text (RFC 6962 §2.1 for the tree), not taken
 * from the project's own log code, so the witness cannot pass by agreeing with itself.
 */
import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';

// --- signed-note and tlog-checkpoint, from the spec ---------------------------------------------------
const sha256 = (...parts: (string | Uint8Array)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
type Key = { name: string; id: Buffer; privateKey: KeyObject; raw: Buffer };
function newKey(name: string, type: number): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { name, id: sha256(name, '\n', Buffer.of(type), raw).subarray(0, 4), privateKey, raw };
}
/** `<name>+hex(key ID)+base64(type || public key)` (signed-note §Verifier keys). */
const vkeyOf = (key: Key, type: number) => `${key.name}+${key.id.toString('hex')}+${Buffer.concat([Buffer.of(type), key.raw]).toString('base64')}`;
const signatureLine = (key: Key, signature: Buffer) => `\u2014 ${key.name} ${Buffer.concat([key.id, signature]).toString('base64')}\n`;
const checkpointText = (origin: string, size: number, root: Buffer) => `${origin}\n${size}\n${root.toString('base64')}\n`;
const signedCheckpoint = (text: string, ...keys: Key[]) => `${text}\n${keys.map((k) => signatureLine(k, sign(null, Buffer.from(text), k.privateKey))).join('')}`;

// --- RFC 6962 §2.1 -----------------------------------------------------------------------------------
const leaves = Array.from({ length: 64 }, (_, i) => Buffer.from(`entry ${i}`));
const largestPowerOfTwoBelow = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha256('');
  if (d.length === 1) return sha256(Buffer.of(0), d[0]!);
  const k = largestPowerOfTwoBelow(d.length);
  return sha256(Buffer.of(1), mth(d.slice(0, k)), mth(d.slice(k)));
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = largestPowerOfTwoBelow(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
const proof = (m: number, n: number, d = leaves) => (m === 0 ? [] : subproof(m, d.slice(0, n), true));

// --- tlog-witness add-checkpoint body ------------------------------------------------------------------
const body = (old: number, hashes: Buffer[], checkpoint: string) => `old ${old}\n${hashes.map((h) => `${h.toString('base64')}\n`).join('')}\n${checkpoint}`;

const ORIGIN = 'reviews.alice.example/log';
const OTHER = 'reviews.dave.example/log';
const logKey = newKey(ORIGIN, 0x01);
const otherKey = newKey(OTHER, 0x01);
const cp = (size: number, d = leaves) => signedCheckpoint(checkpointText(ORIGIN, size, mth(d.slice(0, size))), logKey);

let work: string;
let dataDir: string;
let distDir: string;
let witness: Awaited<ReturnType<typeof startTestSidecar>>;
let base: string;
let cosigner: { name: string; id: Buffer; raw: Buffer };
const post = (text: string) => fetch(`${base}/witness/add-checkpoint`, { method: 'POST', body: text });
const env = () => ({ DATA_DIR: dataDir, WITNESS_LOGS: `${vkeyOf(logKey, 0x01)},${vkeyOf(otherKey, 0x01)}`, WITNESS_RATE_LIMIT: '1000,100' });

/** tlog-cosignature §Ed25519 signed message: the timestamp when `line` is the witness's cosignature of `text`. */
function verifyCosignature(text: string, line: string): number | undefined {
  const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
  if (!m || m[1] !== cosigner.name) return undefined;
  const raw = Buffer.from(m[2]!, 'base64');
  if (raw.length !== 4 + 8 + 64 || !raw.subarray(0, 4).equals(cosigner.id)) return undefined;
  const timestamp = Number(raw.readBigUInt64BE(4));
  const publicKey = { key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), cosigner.raw]), format: 'der', type: 'spki' } as const;
  return verify(null, Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`), publicKey, raw.subarray(12)) ? timestamp : undefined;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'witness-conformance-'));
  dataDir = path.join(work, 'data');
  ({ distDir } = await buildTestSite({ publicUrl: 'https://reviews.bob.example' }));
  witness = await startTestSidecar({ distDir, publicUrl: 'https://reviews.bob.example', env: env() });
  base = witness.url;
  const vkey = (await (await fetch(`${base}/witness/vkey`)).text()).trim();
  // signed-note §Verifier keys: only the base64 key may itself hold a +.
  const [name, id, ...rest] = vkey.split('+') as [string, string, ...string[]];
  const key = rest.join('+');
  const material = Buffer.from(key, 'base64');
  expect(material[0]).toBe(0x04);
  cosigner = { name, id: Buffer.from(id, 'hex'), raw: material.subarray(1) };
  expect(sha256(name, '\n', Buffer.of(0x04), cosigner.raw).subarray(0, 4)).toEqual(cosigner.id);
}, 180_000);

afterAll(async () => {
  await witness?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('add-checkpoint, in the order tlog-witness gives its checks', () => {
  it('answers 404 for an origin it does not witness', async () => {
    const stranger = newKey('reviews.mallory.example/log', 0x01);
    const res = await post(body(0, [], signedCheckpoint(checkpointText(stranger.name, 3, mth(leaves.slice(0, 3))), stranger)));
    expect(res.status).toBe(404);
  });

  it('answers 403 when no signature is from the trusted key, and when the trusted key\'s signature fails', async () => {
    const impostor = newKey(ORIGIN, 0x01);
    expect((await post(body(0, [], signedCheckpoint(checkpointText(ORIGIN, 3, mth(leaves.slice(0, 3))), impostor)))).status).toBe(403);
    const text = checkpointText(ORIGIN, 3, mth(leaves.slice(0, 3)));
    const forged = `${text}\n${signatureLine(logKey, Buffer.alloc(64, 7))}`;
    expect((await post(body(0, [], forged))).status).toBe(403);
  });

  it('answers 400 for an old size above the checkpoint\'s, and for a body that is not a request', async () => {
    expect((await post(body(9, [], cp(5)))).status).toBe(400);
    expect((await post('old 00\n\n' + cp(5))).status).toBe(400);
    expect((await post('hello')).status).toBe(400);
  });

  it('answers 422 for a checkpoint of size 0 whose root is not the empty tree\'s, and for a proof sent with old 0', async () => {
    const notEmpty = signedCheckpoint(checkpointText(OTHER, 0, mth(leaves.slice(0, 1))), otherKey);
    expect((await post(body(0, [], notEmpty))).status).toBe(422);
    const withProof = signedCheckpoint(checkpointText(OTHER, 4, mth(leaves.slice(0, 4))), otherKey);
    expect((await post(body(0, [mth(leaves.slice(0, 2))], withProof))).status).toBe(422);
  });

  it('cosigns a first checkpoint with a cosignature/v1 that verifies, timestamp not zero', async () => {
    const res = await post(body(0, [], cp(5)));
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    const timestamp = verifyCosignature(checkpointText(ORIGIN, 5, mth(leaves.slice(0, 5))), lines[0]!);
    expect(timestamp).toBeGreaterThan(Date.now() / 1000 - 120);
  });

  it('answers 409 with text/x.tlog.size and the size it cosigned, when old is not that size', async () => {
    const res = await post(body(0, [], cp(8)));
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^text\/x\.tlog\.size/);
    expect(await res.text()).toBe('5\n');
    expect((await post(body(3, proof(3, 8), cp(8)))).status).toBe(409);
  });

  it('answers 422 for a consistency proof that does not verify, and for the same size with another root', async () => {
    const bad = proof(5, 8).map((h, i) => (i === 0 ? sha256(h) : h));
    expect((await post(body(5, bad, cp(8)))).status).toBe(422);
    const fork = [...leaves.slice(0, 4), Buffer.from('another entry 4'), ...leaves.slice(5)];
    expect((await post(body(5, [], cp(5, fork)))).status).toBe(422);
    expect((await post(body(5, proof(5, 8, fork), cp(8, fork)))).status).toBe(422);
  });

  it('cosigns a checkpoint that extends the one it holds, and serves it to monitors with the log\'s signature and its own', async () => {
    const res = await post(body(5, proof(5, 8), cp(8)));
    expect(res.status).toBe(200);
    const monitored = await fetch(`${base}/witness/${sha256(ORIGIN).toString('hex')}/checkpoint`);
    expect(monitored.status).toBe(200);
    const note = await monitored.text();
    const text = checkpointText(ORIGIN, 8, mth(leaves.slice(0, 8)));
    expect(note.startsWith(`${text}\n`)).toBe(true);
    const signatures = note.slice(text.length + 1).split('\n').filter(Boolean);
    const logLine = signatures.find((l) => l.startsWith(`\u2014 ${ORIGIN} `))!;
    const raw = Buffer.from(logLine.split(' ')[2]!, 'base64');
    expect(raw.subarray(0, 4)).toEqual(logKey.id);
    expect(verify(null, Buffer.from(text), { key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), logKey.raw]), format: 'der', type: 'spki' }, raw.subarray(4))).toBe(true);
    expect(signatures.some((l) => verifyCosignature(text, l) !== undefined)).toBe(true);
  });

  it('answers 404 at the monitoring path of a log it never cosigned', async () => {
    expect((await fetch(`${base}/witness/${sha256(OTHER).toString('hex')}/checkpoint`)).status).toBe(404);
    expect((await fetch(`${base}/witness/${sha256('reviews.nobody.example/log').toString('hex')}/checkpoint`)).status).toBe(404);
  });

  it('never rolls back under concurrent submissions: each client retries from the size it is told, and the witness ends at the largest', async () => {
    const sizes = [9, 30, 12, 64, 17, 40, 33, 21, 50, 11];
    const accepted: number[] = [];
    await Promise.all(
      sizes.map(async (size) => {
        let old = 8;
        for (;;) {
          const res = await post(body(old, proof(old, size), cp(size)));
          if (res.status === 200) return void accepted.push(size);
          expect(res.status).toBe(409);
          old = Number((await res.text()).trim());
          if (old >= size) return;
        }
      }),
    );
    expect(accepted).toContain(64);
    const note = await (await fetch(`${base}/witness/${sha256(ORIGIN).toString('hex')}/checkpoint`)).text();
    expect(note.split('\n')[1]).toBe('64');
    // Each accepted size was larger than every one accepted before it.
    expect(accepted).toEqual([...accepted].sort((a, b) => a - b));
  });
});

/**
 * The same witness (its key file) restarted on a new DATA_DIR (a moved or restored machine; the WebSub
 * store keeps its own folder's lock) holding `state` as its state file, or none.
 */
async function restartWith(state: string | undefined, extraEnv: Record<string, string> = {}) {
  const keyFile = await readFile(path.join(dataDir, 'witness-key'), 'utf8');
  await witness.close();
  dataDir = await mkdtemp(path.join(work, 'data-'));
  await writeFile(path.join(dataDir, 'witness-key'), keyFile, { mode: 0o600 });
  if (state !== undefined) await writeFile(path.join(dataDir, 'witness-state.json'), state);
  witness = await startTestSidecar({ distDir, publicUrl: 'https://reviews.bob.example', env: { ...env(), ...extraEnv } });
  base = witness.url;
}

describe('a witness that cannot read its state', () => {
  it('cosigns nothing after losing its state file or with a damaged one, and again once the state is back or the operator starts it afresh', async () => {
    const kept = await readFile(path.join(dataDir, 'witness-state.json'), 'utf8');
    await restartWith(undefined);
    const refused = await post(body(0, [], cp(64)));
    expect(refused.status).toBe(503);
    expect((await refused.json()).message).toMatch(/witness-state\.json is missing/);
    expect((await post(body(64, [], cp(64)))).status).toBe(503);

    await restartWith('{"version":1,"logs":{"reviews.alice.example/log":');
    expect((await post(body(0, [], cp(64)))).status).toBe(503);
    expect((await fetch(`${base}/witness/${sha256(ORIGIN).toString('hex')}/checkpoint`)).status).toBe(503);

    await restartWith(kept);
    const restored = await post(body(0, [], cp(64)));
    expect(restored.status).toBe(409);
    expect(await restored.text()).toBe('64\n');

    // The operator's documented way to start afresh (docs/log.md).
    await restartWith('{"version":1,"logs":{}}');
    expect((await post(body(0, [], cp(40)))).status).toBe(200);
  }, 300_000);
});

describe('the rate limit on /witness/*', () => {
  it('answers 429 with Retry-After once a client has spent its burst', async () => {
    await restartWith(await readFile(path.join(dataDir, 'witness-state.json'), 'utf8'), { WITNESS_RATE_LIMIT: '3,0.01' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(body(0, [], cp(64)))).status);
    // (409: the state holds 40 since the fresh start above.)
    expect(statuses).toEqual([409, 409, 409, 429]);
    const limited = await fetch(`${base}/witness/${sha256(ORIGIN).toString('hex')}/checkpoint`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});
