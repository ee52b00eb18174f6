/**
 * The sidecar as a witness (C2SP tlog-witness and tlog-cosignature, issue 27 item 7): an instance
 * configured with another instance's log key cosigns that log's checkpoints over real HTTP only when
 * each extends the last one it cosigned; the publishing side (scripts/lib/witness-cosignatures.ts)
 * appends the cosignature to its checkpoint, and Go's note.Open still verifies the log's signature.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLogFiles, encodeLogEntry, formatVerifierKey, generateSigner, openNote, type LogEntry } from '../../core/log/index.ts';
import { buildSite } from '../../scripts/build.ts';
import { formatAddCheckpointRequest } from '../../core/witness/add-checkpoint.ts';
import { parseCosignerKey, verifyCosignature } from '../../core/log/cosignature.ts';
import { requestCosignatures } from '../../sidecar/witness/request-cosignatures.ts';
import { WITNESS_KEY_FILE, WITNESS_STATE_FILE } from '../../sidecar/witness/witness.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { runTlogCheck } from '../helpers/tlog-check.ts';

const ORIGIN = 'reviews.acme.example/log';
const logKey = generateSigner(ORIGIN);
/** A second instance, built and served for real, whose publishes ask the first to witness its log. */
const CAROL = 'https://reviews.carol.example';
const entry = (i: number): Uint8Array =>
  encodeLogEntry({ action: 'publish', review_id: `r-${i}`, time: '2026-01-02T03:04:05Z', date: '2025-03-01', rating: 1 + (i % 5), digest: Buffer.alloc(32, i).toString('base64') } as LogEntry);
const ENTRIES = Array.from({ length: 600 }, (_, i) => entry(i));

let work: string;
let witness: Awaited<ReturnType<typeof startTestSidecar>>;
let witnessUrl: string;
let witnessKey: string;
let bobDist: string;

const logOf = (size: number, entries = ENTRIES, key = logKey) => {
  const { files, tree } = buildLogFiles({ origin: key.name, entries: entries.slice(0, size), signer: key });
  return { note: files.get('checkpoint')!.toString('utf8'), tree, files };
};
const ask = (size: number, entries = ENTRIES) => {
  const { note, tree } = logOf(size, entries);
  return requestCosignatures({ note, tree, witnesses: [{ url: witnessUrl, key: witnessKey }], ...pacing() });
};
/** No pacing (a request a millisecond at most); the ledger of what the witness cosigned in the test's folder. */
const pacing = () => ({ timeoutMs: 10_000, qpd: 86_400_000, dataDir: path.join(work, 'publisher') });
const post = (body: string) => fetch(`${witnessUrl}/add-checkpoint`, { method: 'POST', body });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'witness-'));
  await mkdir(path.join(work, 'publisher'));
  const { distDir } = await buildTestSite({ publicUrl: 'https://reviews.bob.example' });
  bobDist = distDir;
  witness = await startTestSidecar({ distDir, publicUrl: 'https://reviews.bob.example', env: { DATA_DIR: path.join(work, 'data'), WITNESS_LOGS: formatVerifierKey(logKey) } });
  witnessUrl = `${witness.url}/witness`;
  witnessKey = (await (await fetch(`${witnessUrl}/vkey`)).text()).trim();
}, 600_000);

afterAll(async () => {
  await witness?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the sidecar as a witness', () => {
  it('serves its cosigner key, named after its PUBLIC_URL, its private key kept in DATA_DIR with mode 0600', async () => {
    expect(witnessKey).toMatch(/^reviews\.bob\.example\/witness\+[0-9a-f]{8}\+/);
    expect(parseCosignerKey(witnessKey).ok).toBe(true);
    const { mode } = await import('node:fs/promises').then((fs) => fs.stat(path.join(work, 'data', WITNESS_KEY_FILE)));
    expect(mode & 0o777).toBe(0o600);
  });

  it('cosigns a first checkpoint, then each that extends it (consistency proof), and the log appends the cosignature', async () => {
    const first = await ask(10);
    expect(first.outcomes).toEqual([{ url: witnessUrl, ok: true, detail: 'cosigned' }]);
    const body = first.note.slice(0, first.note.indexOf('\n\n') + 1);
    const cosignature = first.note.trimEnd().split('\n').at(-1)!;
    const key = parseCosignerKey(witnessKey);
    if (!key.ok) throw new Error(key.reason);
    expect(verifyCosignature(body, cosignature, key.value)).toBeGreaterThan(Date.now() / 1000 - 60);
    // The log's own signature still opens, ours and Go's, with the cosignature beside it.
    expect(openNote(first.note, logKey).ok).toBe(true);

    for (const size of [11, 256, 257, 600, 600]) {
      const next = await ask(size);
      expect(next.outcomes, `size ${size}`).toEqual([{ url: witnessUrl, ok: true, detail: 'cosigned' }]);
    }
    const state = JSON.parse(await readFile(path.join(work, 'data', WITNESS_STATE_FILE), 'utf8'));
    expect(state.logs[ORIGIN].size).toBe(600);

    const dir = path.join(work, 'cosigned-log');
    const { files, tree } = logOf(600);
    const cosigned = await requestCosignatures({ note: files.get('checkpoint')!.toString('utf8'), tree, witnesses: [{ url: witnessUrl, key: witnessKey }], ...pacing() });
    files.set('checkpoint', Buffer.from(cosigned.note));
    for (const [p, bytes] of files) {
      await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
      await writeFile(path.join(dir, p), bytes);
    }
    const report = await runTlogCheck(dir);
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('refuses a fork, a rollback, an unknown log and a checkpoint not signed by the known key', async () => {
    const forked = [...ENTRIES.slice(0, 599), entry(9999)];
    const fork = await ask(600, forked);
    expect(fork.outcomes[0]).toMatchObject({ ok: false });
    expect(fork.outcomes[0]!.detail).toMatch(/^it answered 422: another tree of 600 entries/);
    const longerFork = await ask(601, [...forked, entry(10000)]);
    expect(longerFork.outcomes[0]!.detail).toMatch(/^it answered 422: .*the checkpoint extends the tree of 600 entries/);

    const rollback = await ask(300);
    expect(rollback.outcomes[0]!.detail).toBe('it has cosigned a larger tree (600 entries) than this one (300): the log has been rolled back');

    const stranger = logOf(5, ENTRIES, generateSigner('reviews.mallory.example/log'));
    const unknown = await post(formatAddCheckpointRequest({ oldSize: 0, proof: [], note: stranger.note }));
    expect(unknown.status).toBe(404);
    const impostor = logOf(700, [...ENTRIES, ...ENTRIES.slice(0, 100)], generateSigner(ORIGIN));
    const forged = await post(formatAddCheckpointRequest({ oldSize: 600, proof: impostor.tree.consistencyProof(600), note: impostor.note }));
    expect(forged.status).toBe(403);
    expect((await forged.json()).error).toBe('forbidden');

    const stale = await post(formatAddCheckpointRequest({ oldSize: 10, proof: logOf(700, [...ENTRIES, ...ENTRIES.slice(0, 100)]).tree.consistencyProof(10), note: logOf(700, [...ENTRIES, ...ENTRIES.slice(0, 100)]).note }));
    expect(stale.status).toBe(409);
    expect(stale.headers.get('content-type')).toMatch(/^text\/x\.tlog\.size/);
    expect(await stale.text()).toBe('600\n');
    expect((await post('not a request')).status).toBe(400);
    // After all that, the witness's view is still the honest tree of 600.
    const state = JSON.parse(await readFile(path.join(work, 'data', WITNESS_STATE_FILE), 'utf8'));
    expect(state.logs[ORIGIN].root_hash).toBe(logOf(600).tree.rootHash().toString('base64'));
  });

  it('judges concurrent requests one at a time: of two from the same old size, one is cosigned, the other told the new size', async () => {
    const bigger = [...ENTRIES, ...Array.from({ length: 50 }, (_, i) => entry(700 + i))];
    const a = logOf(620, bigger);
    const b = logOf(650, bigger);
    const [ra, rb] = await Promise.all([a, b].map((l) => post(formatAddCheckpointRequest({ oldSize: 600, proof: l.tree.consistencyProof(600), note: l.note }))));
    expect([ra!.status, rb!.status].sort()).toEqual([200, 409]);
  });

  it('two instances: a publish asks the other instance to cosign, and serves the cosigned checkpoint', async () => {
    const carolBuild = (extra: Partial<Parameters<typeof buildSite>[0]>) =>
      buildSite({ contentDir: SMALL_CONTENT, publicUrl: CAROL, outDir: path.join(work, 'carol', 'dist'), dataDir: path.join(work, 'carol', 'data'), report: () => {}, ...extra });
    // Carol's first publish creates her log (the run's one build of her site, copied); Bob's instance is then
    // told her key, as an owner would be.
    await buildTestSite({ publicUrl: CAROL, outDir: path.join(work, 'carol', 'dist'), dataDir: path.join(work, 'carol', 'data') });
    const carolVkey = await readFile(path.join(work, 'carol', 'dist', 'log', 'vkey'), 'utf8');
    const bob = await startTestSidecar({ distDir: bobDist, publicUrl: 'https://reviews.bob.example', env: { DATA_DIR: path.join(work, 'bob-data'), WITNESS_LOGS: carolVkey.trim() } });
    const bobWitness = `${bob.url}/witness`;
    const bobKey = (await (await fetch(`${bobWitness}/vkey`)).text()).trim();
    const said: string[] = [];
    const built = await carolBuild({ logWitnesses: [{ url: bobWitness, key: bobKey }], report: (line) => said.push(line) });
    await bob.close();
    if (!built.ok) throw new Error(built.message);
    expect(said).toContain(`Witness ${bobWitness}: cosigned the checkpoint.`);
    const carol = await startTestSidecar({ distDir: path.join(work, 'carol', 'dist'), publicUrl: CAROL });
    try {
      const note = await (await fetch(`${carol.url}/log/checkpoint`)).text();
      const lines = note.trimEnd().split('\n');
      expect(lines.at(-2)).toMatch(/^\u2014 reviews\.carol\.example\/log /);
      const key = parseCosignerKey(bobKey);
      if (!key.ok) throw new Error(key.reason);
      expect(verifyCosignature(note.slice(0, note.indexOf('\n\n') + 1), lines.at(-1)!, key.value)).toBeDefined();
      const report = await runTlogCheck(path.join(await realpath(path.join(work, 'carol', 'dist')), 'log'));
      expect(report.errors).toEqual([]);
    } finally {
      await carol.close();
    }
    // A witness that is down is reported and the publish goes on.
    const three = logOf(3);
    const down = await requestCosignatures({ note: three.note, tree: three.tree, witnesses: [{ url: 'http://127.0.0.1:9/witness', key: witnessKey }], ...pacing() });
    expect(down.outcomes[0]).toMatchObject({ ok: false, detail: expect.stringMatching(/^no answer: /) });
    expect(down.note).toBe(three.note);
  }, 300_000);
});
