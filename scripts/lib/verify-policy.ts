/**
 * `npm run verify -- <url> --policy <file or url>` (docs/verification.md "Your own policy"): the served
 * checkpoint must be signed by a log the C2SP tlog-policy names and cosigned by a quorum of its witnesses;
 * each witness that has a URL in the policy is asked for the checkpoint it last cosigned (tlog-witness
 * §Monitor Retrieval Mechanism, `<url>/<hex SHA-256 of the origin>/checkpoint`), and a view that differs
 * from the site's is named: another root at the same size, a tree the site's does not extend, or a
 * witness ahead of the site (the site serves an older view than a witness has seen).
 *
 * Node built-ins only, like scripts/verify.ts.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openCheckpoint, type Checkpoint } from '../../core/log/checkpoint.ts';
import type { MerkleTree } from '../../core/log/merkle.ts';
import { verifyCosignature } from '../../core/log/cosignature.ts';
import type { NoteVerifier } from '../../core/log/note.ts';
import { checkQuorum, parseTlogPolicy, type TlogPolicy } from '../../core/log/policy.ts';
import type { VerifierKey } from '../../core/log/proof-check.ts';

const TIMEOUT_MS = 10_000;
/** A policy, like a checkpoint, is a few lines; 64 KiB is room for hundreds of witnesses. */
const MAX_BYTES = 64 * 1024;

async function fetchText(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new Error(`${url} is larger than ${MAX_BYTES} bytes`);
  return { status: res.status, text: bytes.toString('utf8') };
}

/** The policy in a file or at a URL; every problem in it, when it is not one. */
export async function loadPolicy(source: string): Promise<{ ok: true; policy: TlogPolicy } | { ok: false; message: string }> {
  let text: string;
  try {
    if (/^https?:\/\//.test(source)) {
      const res = await fetchText(source);
      if (res.status !== 200) return { ok: false, message: `the policy ${source} answered ${res.status}` };
      text = res.text;
    } else {
      text = await readFile(source, 'utf8');
    }
  } catch (error) {
    return { ok: false, message: `the policy ${source} cannot be read: ${(error as Error).message}` };
  }
  const parsed = parseTlogPolicy(text);
  if (!parsed.ok) return { ok: false, message: `the policy ${source} is not a tlog-policy:\n  ${parsed.problems.join('\n  ')}` };
  if (parsed.value.logs.length === 0) return { ok: false, message: `the policy ${source} names no log key` };
  return { ok: true, policy: parsed.value };
}

/** The policy's log key for `origin` (its name is the origin), else its only one: the key verify trusts. */
export function policyLogKey(policy: TlogPolicy, origin: string): string {
  return (policy.logs.find((l) => l.key.name === origin) ?? policy.logs[0]!).key.text;
}

const noteVerifier = (key: VerifierKey): NoteVerifier => ({ name: key.name, keyId: key.keyId, publicKey: Buffer.from(key.publicKey) });

/** The names of the policy's witnesses whose valid cosignature `note` carries. */
export function findCosigners(policy: TlogPolicy, note: string): Set<string> {
  const split = note.lastIndexOf('\n\n');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2).split('\n').filter(Boolean);
  const found = new Set<string>();
  for (const [name, { key }] of policy.witnesses) {
    const verifier = noteVerifier(key);
    if (lines.some((line) => verifyCosignature(text, line, verifier) !== undefined)) found.add(name);
  }
  return found;
}

/** Compares one witness's monitoring checkpoint with the site's; a problem, or what holds. */
async function compareWithWitness(name: string, url: string, policy: TlogPolicy, site: Checkpoint, tree: MerkleTree): Promise<{ problem?: string; said: string }> {
  const log = policy.logs.find((l) => l.key.name === site.origin)!;
  const at = `${url.replace(/\/+$/, '')}/${createHash('sha256').update(site.origin).digest('hex')}/checkpoint`;
  let res: { status: number; text: string };
  try {
    res = await fetchText(at);
  } catch (error) {
    return { said: `${name}: its monitoring checkpoint could not be read (${(error as Error).message})` };
  }
  if (res.status === 404) return { said: `${name}: has cosigned nothing of this log yet` };
  if (res.status !== 200) return { said: `${name}: its monitoring checkpoint answered ${res.status}` };
  const opened = openCheckpoint(res.text, noteVerifier(log.key), site.origin);
  if (!opened.ok) return { said: `${name}: its monitoring checkpoint does not open with the log's key (${opened.reason})` };
  if (!findCosigners(policy, res.text).has(name)) return { said: `${name}: its monitoring checkpoint carries no valid cosignature of its own` };
  const seen = opened.value;
  if (seen.size > site.size) {
    return { problem: `witness ${name} has cosigned a tree of ${seen.size} entries, larger than the ${site.size} the site serves you: the site shows you an older view than it showed ${name} (if it persists, a split view)`, said: '' };
  }
  if (!tree.rootHash(seen.size).equals(seen.rootHash)) {
    return { problem: `witness ${name} has cosigned another tree of ${seen.size} entries than the site's: a split view (the site shows ${name} another history than you)`, said: '' };
  }
  return { said: `${name}: has seen ${seen.size} entries, a tree the site's extends` };
}

/** Checks the site's checkpoint `note` (already opened as `checkpoint`, its entries hashed into `tree`) against the policy. */
export async function checkPolicy(input: { policy: TlogPolicy; note: string; checkpoint: Checkpoint; tree: MerkleTree; problems: string[]; print: (line: string) => void }): Promise<void> {
  const { policy, note, checkpoint, tree, problems, print } = input;
  if (!policy.logs.some((l) => l.key.name === checkpoint.origin && openCheckpoint(note, noteVerifier(l.key), checkpoint.origin).ok)) {
    problems.push(`the checkpoint is not signed by a log the policy names for ${checkpoint.origin}`);
    return;
  }
  const cosigners = findCosigners(policy, note);
  const quorum = checkQuorum(policy, cosigners);
  const by = cosigners.size === 0 ? 'no witness' : [...cosigners].join(', ');
  if (quorum.met) print(`Policy: the quorum (${policy.quorum}) is met; cosigned by ${by}.`);
  else problems.push(`the checkpoint lacks the policy's quorum (${policy.quorum}): cosigned by ${by}; missing ${quorum.missing.join(', ')}`);
  const asked = [...policy.witnesses].filter(([, w]) => w.url !== undefined);
  const views = await Promise.all(asked.map(([name, w]) => compareWithWitness(name, w.url!, policy, checkpoint, tree)));
  for (const view of views) {
    if (view.problem) problems.push(view.problem);
    else print(`  witness ${view.said}.`);
  }
}
