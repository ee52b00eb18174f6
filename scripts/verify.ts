/**
 * `npm run verify -- <url> [--key <vkey or file>] [--state <file>]`: checks, from the outside, that a
 * reviews service publishes what its log says (issue 27 item 5). Anyone can run it: it needs Node 24
 * and, besides this file, only core/log's checkpoint.ts, merkle.ts, note.ts, tiles.ts, canonical-json.ts
 * and review-digest.ts, and core/text/text-rules.ts (node built-ins only; docs/verification.md says how
 * to copy them).
 *
 * 1. The checkpoint `{url}/log/checkpoint` must carry a valid Ed25519 signature by the log's key: the one
 *    given with --key (trusted), else the one the site serves at `{url}/log/vkey` (said with a warning:
 *    whoever can change the site can change that key too).
 * 2. The entries in `{url}/log/tile/entries/…` must hash (RFC 6962) to the checkpoint's root, and every
 *    hash tile `{url}/log/tile/<L>/…` must be the one they make.
 * 3. Each review in `{url}/reviews.json` must match the digest of its latest entry (a publish or an
 *    update); a review served without an entry, or served after its withdrawal, or logged as published
 *    but not served, is named.
 * 4. The withdrawals are listed: when, the review's date and rating, the reason.
 * 5. The last checkpoint seen for this address is kept in a state file (--state, default
 *    `~/.config/reviews-verify/state.json`); the new tree must extend it (RFC 9162 consistency proof),
 *    or the log has forked or shrunk.
 * Exit 0 when all holds, 1 naming each problem, 2 when the log cannot be read at all.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openCheckpoint, type Checkpoint } from '../core/log/checkpoint.ts';
import { MerkleTree, verifyConsistency } from '../core/log/merkle.ts';
import { formatVerifierKey, parseVerifierKey, type NoteVerifier } from '../core/log/note.ts';
import { digestReview } from '../core/log/review-digest.ts';
import { decodeEntryBundle, entryTilesOf, hashTilesOf, readHashTile, tilePath, type Tile } from '../core/log/tiles.ts';

type Entry = { action: string; review_id: string; time: string; date: string; rating: number; digest?: string; reason?: string };
type Review = { id: string } & Record<string, unknown>;
type State = { logs: Record<string, { checkpoint: string; seen: string }> };

const USAGE = 'Usage: npm run verify -- <url> [--key <vkey or file>] [--state <file>] [--policy <tlog-policy file or url>]';

class Unreadable extends Error {}

async function fetchBytes(url: string): Promise<Buffer | undefined> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (error) {
    throw new Unreadable(`could not fetch ${url}: ${(error as Error).cause ?? (error as Error).message}`);
  }
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Unreadable(`${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function fetchRequired(url: string): Promise<Buffer> {
  const bytes = await fetchBytes(url);
  if (bytes === undefined) throw new Unreadable(`${url} is not found (404)`);
  return bytes;
}

/** Fetches the tiles, a few at a time, in order. */
async function fetchTiles(logUrl: string, tiles: readonly Tile[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 0; i < tiles.length; i += 8) {
    out.push(...(await Promise.all(tiles.slice(i, i + 8).map((t) => fetchRequired(`${logUrl}${tilePath(t)}`)))));
  }
  return out;
}

async function readVerifier(key: string | undefined, logUrl: string): Promise<{ verifier: NoteVerifier; trusted: boolean }> {
  let text = key;
  if (key !== undefined && !key.includes('+')) text = await readFile(key, 'utf8');
  const trusted = text !== undefined;
  text ??= (await fetchRequired(`${logUrl}vkey`)).toString('utf8');
  const parsed = parseVerifierKey(text);
  if (!parsed.ok) throw new Unreadable(`${trusted ? 'the key given with --key' : `${logUrl}vkey`} is not a verifier key: ${parsed.reason}`);
  return { verifier: parsed.value, trusted };
}

/** The log's entries, checked against the signed checkpoint and every hash tile. */
async function readLog(logUrl: string, verifier: NoteVerifier, problems: string[]) {
  const note = (await fetchRequired(`${logUrl}checkpoint`)).toString('utf8');
  const opened = openCheckpoint(note, verifier, verifier.name);
  if (!opened.ok) throw new Unreadable(`the checkpoint ${logUrl}checkpoint: ${opened.reason}`);
  const checkpoint = opened.value;
  const bundles = entryTilesOf(checkpoint.size);
  const entries: Buffer[] = [];
  for (const [i, bundle] of (await fetchTiles(logUrl, bundles)).entries()) {
    let got: Buffer[] = [];
    try {
      got = decodeEntryBundle(bundle);
    } catch (error) {
      problems.push(`entry bundle ${tilePath(bundles[i]!)}: ${(error as Error).message}`);
    }
    if (got.length !== bundles[i]!.width) problems.push(`entry bundle ${tilePath(bundles[i]!)} holds ${got.length} entries, not ${bundles[i]!.width}: a missing entry`);
    entries.push(...got);
  }
  const tree = MerkleTree.fromEntries(entries);
  if (problems.length === 0 && !tree.rootHash().equals(checkpoint.rootHash)) {
    problems.push(`the ${entries.length} entries do not hash to the signed checkpoint's root: an entry is missing or changed`);
  }
  if (problems.length === 0) {
    const tiles = hashTilesOf(checkpoint.size);
    for (const [i, bytes] of (await fetchTiles(logUrl, tiles)).entries()) {
      if (!bytes.equals(readHashTile(tree, tiles[i]!))) problems.push(`hash tile ${tilePath(tiles[i]!)} is not the one the entries make`);
    }
  }
  const decoded = entries.map((bytes, i) => {
    try {
      return JSON.parse(bytes.toString('utf8')) as Entry;
    } catch {
      problems.push(`entry ${i} is not JSON`);
      return { action: 'unreadable', review_id: '', time: '', date: '', rating: 0 };
    }
  });
  return { note, checkpoint, tree, entries: decoded };
}

/** Each served review against its latest entry; each review the log says is published against what is served. */
function checkReviews(reviews: readonly Review[], entries: readonly Entry[], problems: string[]) {
  const latest = new Map<string, number>();
  entries.forEach((entry, i) => latest.set(entry.review_id, i));
  const served = new Set<string>();
  for (const review of reviews) {
    served.add(review.id);
    const i = latest.get(review.id);
    const entry = i === undefined ? undefined : entries[i]!;
    if (i === undefined || !entry) problems.push(`review ${review.id} is served but has no entry in the log: a missing entry`);
    else if (entry.action === 'withdraw') problems.push(`review ${review.id} is served but entry ${i} withdrew it`);
    else if (entry.digest !== digestReview(review)) problems.push(`review ${review.id} does not match its latest entry (${i}): it changed behind the log's back`);
  }
  for (const [id, i] of latest) {
    if (entries[i]!.action !== 'withdraw' && !served.has(id)) problems.push(`review ${id} is published by entry ${i} but not served, and no entry withdrew it`);
  }
}

/** The new tree must extend the one seen last time for this address. */
function checkExtends(seen: string | undefined, verifier: NoteVerifier, checkpoint: Checkpoint, tree: MerkleTree, problems: string[]) {
  if (seen === undefined) return 'first visit: checkpoint remembered';
  const old = openCheckpoint(seen, verifier, verifier.name);
  if (!old.ok) return void problems.push(`the checkpoint seen last time does not open with this key (${old.reason}): the log's key changed`);
  const { size, rootHash } = old.value;
  if (size > checkpoint.size) return void problems.push(`the log shrank from ${size} entries, seen last time, to ${checkpoint.size}: a fork or a rollback`);
  const proof = tree.consistencyProof(size);
  if (!verifyConsistency(size, checkpoint.size, proof, rootHash, checkpoint.rootHash)) {
    return void problems.push(`the log does not extend the tree of ${size} entries seen last time: a fork`);
  }
  return `extends the checkpoint of ${size} entries seen last time (consistency proof of ${proof.length} hashes)`;
}

async function readState(file: string): Promise<State> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as State;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { logs: {} };
    throw new Unreadable(`the state file ${file} cannot be read: ${(error as Error).message}`);
  }
}

async function writeState(file: string, state: State) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.partial`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${file}.partial`, file);
}

function defaultStateFile() {
  const config = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(config, 'reviews-verify', 'state.json');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { key: { type: 'string' }, state: { type: 'string' }, policy: { type: 'string' } } });
  if (positionals.length !== 1 || !/^https?:\/\//.test(positionals[0]!)) {
    console.error(USAGE);
    return 2;
  }
  const base = positionals[0]!.replace(/\/+$/, '');
  const logUrl = `${base}/log/`;
  const stateFile = values.state ?? defaultStateFile();
  const problems: string[] = [];

  // --policy (scripts/lib/verify-policy.ts): the log key and the witnesses the reader trusts.
  // Imported only for --policy, so a copy of verify without it still runs alone (docs/verification.md).
  const policing = values.policy === undefined ? undefined : await import('./lib/verify-policy.ts');
  const policy = values.policy === undefined ? undefined : await policing!.loadPolicy(values.policy);
  if (policy && !policy.ok) throw new Unreadable(policy.message);
  const { verifier, trusted } = await readVerifier(values.key ?? (policy && policing!.policyLogKey(policy.policy, `${base.replace(/^https?:\/\//, '')}/log`)), logUrl);
  if (!trusted) {
    console.warn(`warning: checking against the key the site itself serves (${logUrl}vkey): anyone who can change the site can change it. Pass --key with the key the owner publishes elsewhere.`);
  }
  const { note, checkpoint, tree, entries } = await readLog(logUrl, verifier, problems);
  console.log(`Log ${checkpoint.origin}: ${checkpoint.size} entries, signed by ${formatVerifierKey(verifier)}.`);
  const logProblems = problems.length;
  if (logProblems === 0) console.log('Tree: recomputed from the entry bundles, matches the checkpoint and every hash tile.');
  if (policy && logProblems === 0) await policing!.checkPolicy({ policy: policy.policy, note, checkpoint, tree, problems, print: console.log });

  const reviews = (JSON.parse((await fetchRequired(`${base}/reviews.json`)).toString('utf8')) as { reviews: Review[] }).reviews;
  checkReviews(reviews, entries, problems);
  if (problems.length === logProblems) console.log(`Reviews: all ${reviews.length} in ${base}/reviews.json match their latest entry.`);

  const withdrawals = entries.flatMap((e, i) => (e.action === 'withdraw' ? [{ entry: i, ...e }] : []));
  console.log(`Withdrawals: ${withdrawals.length}.`);
  for (const w of withdrawals) console.log(`  entry ${w.entry}, ${w.time}: a ${w.rating}-star review of ${w.date}, reason: ${w.reason}`);

  const state = await readState(stateFile);
  // The history is checked only against a tree that is the checkpoint's.
  const extended = logProblems === 0 ? checkExtends(state.logs[base]?.checkpoint, verifier, checkpoint, tree, problems) : undefined;
  if (extended) console.log(`History: ${extended}.`);
  if (extended) {
    state.logs[base] = { checkpoint: note, seen: new Date().toISOString() };
    await writeState(stateFile, state);
  }

  for (const problem of problems) console.error(`problem: ${problem}`);
  console.log(problems.length === 0 ? 'OK: the service publishes what its log says.' : `FAILED: ${problems.length} problem(s).`);
  return problems.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof Unreadable)) throw error;
  console.error(`Cannot verify: ${error.message}`);
  process.exitCode = 2;
}
