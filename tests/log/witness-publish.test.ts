/**
 * A business's publishes with two witnesses configured (LOG_WITNESSES), each another instance of the
 * service over real HTTP, reached through a proxy the test can make hang: both cosign a publish; a witness
 * holding an older checkpoint answers 409 and then cosigns; a hanging witness delays the publish by no
 * more than LOG_WITNESS_TIMEOUT_SECONDS, and the running service fetches its cosignature later, without a
 * new publish. Then `npm run verify -- --policy` passes with the site's own policy and fails, naming the
 * witness, with one that asks for a witness that never cosigned.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigner } from '../../core/log/index.ts';
import { parseTlogPolicy } from '../../core/log/policy.ts';
import { findCosigners } from '../../scripts/lib/verify-policy.ts';
import { buildSite } from '../../scripts/build.ts';
import { WITNESSING_LEDGER_FILE } from '../../sidecar/witness/request-cosignatures.ts';
import { runScript } from '../helpers/run-script.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const CAROL = 'https://reviews.carol.example';
let carolVkey: string;
const TIMEOUT_S = 3;

type Sidecar = Awaited<ReturnType<typeof startTestSidecar>>;
/** A proxy in front of a witness: records each answer's status; while `hanging`, holds every request unanswered. */
type Proxy = { url: string; statuses: number[]; hanging: boolean; held: number; heldAt: number[]; server: Server };

async function startProxy(target: string): Promise<Proxy> {
  const proxy: Proxy = { url: '', statuses: [], hanging: false, held: 0, heldAt: [], server: createServer() };
  proxy.server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (proxy.hanging) {
      proxy.held += 1;
      proxy.heldAt.push(performance.now());
      return;
    }
    const answer = await fetch(`${target}${req.url}`, { method: req.method, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
    proxy.statuses.push(answer.status);
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}/witness`;
  return proxy;
}

let work: string;
let content: string;
let witnesses: Sidecar[] = [];
let proxies: Proxy[] = [];
let keys: string[] = [];
let carol: Sidecar | undefined;
const said: string[] = [];
const carolDist = () => path.join(work, 'carol', 'dist');
const carolData = () => path.join(work, 'carol', 'data');
const logWitnesses = () => proxies.map((p, i) => ({ url: p.url, key: keys[i]! }));
const publish = () =>
  buildSite({
    contentDir: content,
    publicUrl: CAROL,
    outDir: carolDist(),
    dataDir: carolData(),
    logWitnesses: logWitnesses(),
    logWitnessing: { timeoutMs: TIMEOUT_S * 1000, qpd: 86_400_000 },
    report: (line) => said.push(line),
  });
const servedPolicy = async () => {
  const parsed = parseTlogPolicy(await readFile(path.join(carolDist(), 'log', 'policy'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.value;
};
/** Adds a review to the content, so the next publish appends an entry. */
async function addReview(id: string) {
  const file = path.join(content, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8')) as object[];
  reviews.push({ id, rating: 4, date: '2025-02-20', text: `Review ${id}: good work.`, author: 'Sam', verified: true });
  await writeFile(file, JSON.stringify(reviews));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'witness-publish-'));
  content = path.join(work, 'content');
  await cp(SMALL_CONTENT, content, { recursive: true });
  const { distDir } = await buildTestSite({ publicUrl: 'https://reviews.bob.example' });
  // Carol's first publish creates her log (the run's one build of her site, copied: the content is unchanged
  // yet); the witnesses are then told its key, as their owners would be.
  await buildTestSite({ contentDir: content, publicUrl: CAROL, outDir: carolDist(), dataDir: carolData() });
  carolVkey = (await readFile(path.join(carolDist(), 'log', 'vkey'), 'utf8')).trim();
  for (const name of ['bob', 'dave']) {
    const sidecar = await startTestSidecar({ distDir, publicUrl: `https://reviews.${name}.example`, env: { DATA_DIR: path.join(work, name), WITNESS_LOGS: carolVkey } });
    witnesses.push(sidecar);
    keys.push((await (await fetch(`${sidecar.url}/witness/vkey`)).text()).trim());
    proxies.push(await startProxy(sidecar.url));
  }
}, 900_000);

afterAll(async () => {
  for (const p of proxies) p.server.closeAllConnections();
  for (const p of proxies) p.server.close();
  await carol?.close();
  for (const w of witnesses) await w.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a publish with two witnesses', () => {
  it('serves a checkpoint that carries both cosignatures, and the site\'s policy names both', async () => {
    const built = await publish();
    if (!built.ok) throw new Error(built.message);
    const policy = await servedPolicy();
    expect([...policy.witnesses.keys()].sort()).toEqual(['reviews.bob.example/witness', 'reviews.dave.example/witness']);
    expect(policy.quorum).toBe('witnesses');
    const note = await readFile(path.join(carolDist(), 'log', 'checkpoint'), 'utf8');
    expect(findCosigners(policy, note).size).toBe(2);
    expect(said.filter((l) => l.endsWith('cosigned the checkpoint.'))).toHaveLength(2);
  }, 300_000);

  it('a witness holding an older checkpoint answers 409, then cosigns from its size', async () => {
    // The publisher forgets what each witness holds (a new machine), so it starts from `old 0`.
    await rm(path.join(carolData(), WITNESSING_LEDGER_FILE));
    for (const p of proxies) p.statuses.length = 0;
    await addReview('r-0100');
    const built = await publish();
    if (!built.ok) throw new Error(built.message);
    for (const p of proxies) expect(p.statuses).toEqual([409, 200]);
    const note = await readFile(path.join(carolDist(), 'log', 'checkpoint'), 'utf8');
    expect(findCosigners(await servedPolicy(), note).size).toBe(2);
  }, 300_000);

  it('a hanging witness delays the publish by at most the timeout, and the running service fetches its cosignature later', async () => {
    const [, dave] = proxies as [Proxy, Proxy];
    dave.hanging = true;
    said.length = 0;
    await addReview('r-0101');
    const built = await publish();
    const ended = performance.now();
    if (!built.ok) throw new Error(built.message);
    expect(dave.held).toBe(1);
    // From the moment the witness held the request to the end of the whole publish.
    expect(ended - dave.heldAt[0]!).toBeLessThan((TIMEOUT_S + 5) * 1000);
    expect(said).toContain(`Witness ${dave.url}: no cosignature (no answer within ${TIMEOUT_S} s); the running service asks it again later.`);
    const policy = await servedPolicy();
    const built3 = await readFile(path.join(carolDist(), 'log', 'checkpoint'), 'utf8');
    expect([...findCosigners(policy, built3)]).toEqual(['reviews.bob.example/witness']);

    dave.hanging = false;
    carol = await startTestSidecar({
      distDir: carolDist(),
      publicUrl: CAROL,
      env: { DATA_DIR: carolData(), LOG_WITNESSES: logWitnesses().map((w) => `${w.url} ${w.key}`).join(','), LOG_WITNESS_TIMEOUT_SECONDS: String(TIMEOUT_S), LOG_WITNESS_QPD: '86400000' },
      sidecar: { witnessRetryMs: 200 },
    });
    let served = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      served = await (await fetch(`${carol.url}/log/checkpoint`)).text();
      if (findCosigners(policy, served).size === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(findCosigners(policy, served).size).toBe(2);
    expect(served.startsWith(built3.slice(0, built3.indexOf('\n\n')))).toBe(true);
  }, 300_000);
});

describe('npm run verify -- --policy', () => {
  const verify = (policy: string) =>
    runScript(process.execPath, ['scripts/verify.ts', carol!.url, '--state', path.join(work, 'state.json'), '--policy', policy], { env: { PATH: process.env.PATH ?? '' } });

  it('passes with the site\'s own policy, which it meets, and compares each witness\'s view', async () => {
    const run = await verify(`${carol!.url}/log/policy`);
    expect(run.stderr).not.toMatch(/problem:/);
    expect(run.stdout).toMatch(/Policy: the quorum \(witnesses\) is met; cosigned by reviews\.bob\.example\/witness, reviews\.dave\.example\/witness\./);
    expect(run.stdout).toMatch(/witness reviews\.bob\.example\/witness: has seen \d+ entries, a tree the site's extends/);
    expect(run.code).toBe(0);
  }, 120_000);

  it('fails, naming the witness, with a policy whose quorum needs a witness that never cosigned', async () => {
    const stranger = generateSigner('witness.erin.example');
    const { formatCosignerKey, asCosigner } = await import('../../core/log/cosignature.ts');
    const file = path.join(work, 'reader.policy');
    await writeFile(
      file,
      [
        `# A reader's own policy`,
        `log ${carolVkey}`,
        `witness bob ${keys[0]}`,
        `witness erin ${formatCosignerKey(asCosigner(stranger))}`,
        'group both all bob erin',
        'quorum both',
        '',
      ].join('\n'),
    );
    const run = await verify(file);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/problem: the checkpoint lacks the policy's quorum \(both\): cosigned by bob; missing erin/);
  }, 120_000);
});
