/**
 * The reader's memory of a log (docs/verification.md step 5): the last checkpoint seen for each address
 * and the key that signed it, in a state file. The new tree must extend that checkpoint (RFC 9162
 * consistency proof), or the log has forked or shrunk.
 *
 * A key rotation (docs/log.md) is one step for the reader: a checkpoint now signed by another key than
 * the one remembered is a problem until the reader, having checked the owner's announcement, runs once
 * with `--accept-key <the new vkey>`; the new tree must still extend the old checkpoint (whose signature
 * was checked when it was remembered), and the new key is remembered.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openCheckpoint, parseCheckpointBody, type Checkpoint } from '../../core/log/checkpoint.ts';
import { MerkleTree, verifyConsistency } from '../../core/log/merkle.ts';
import { formatVerifierKey, type NoteVerifier } from '../../core/log/note.ts';
import { Unreadable } from './site-reader.ts';

/** `key`: the verifier key that signed `checkpoint` (absent in state files from before issue 40). */
export type SeenLog = { checkpoint: string; seen: string; key?: string };
export type VerifyState = { logs: Record<string, SeenLog> };

export function defaultStateFile(): string {
  const config = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(config, 'reviews-verify', 'state.json');
}

export async function readState(file: string): Promise<VerifyState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { logs: {} };
    throw new Unreadable(`the state file ${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    const state = JSON.parse(text) as VerifyState;
    if (typeof state?.logs === 'object' && state.logs !== null) return state;
  } catch {
    // Said below.
  }
  throw new Unreadable(`the state file ${file} is not one npm run verify wrote; move it away to start afresh`);
}

export async function writeState(file: string, state: VerifyState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.partial`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${file}.partial`, file);
}

export type Extension = { ok: true; detail: string; oldSize: number } | { ok: false };

/** Whether the new tree extends the checkpoint seen last time; each thing wrong goes to `problems`. */
export function checkExtends(input: {
  seen: SeenLog | undefined;
  verifier: NoteVerifier;
  /** --accept-key: the new key the reader accepts in place of the remembered one. */
  acceptKey: string | undefined;
  checkpoint: Checkpoint;
  tree: MerkleTree;
  problems: string[];
}): Extension {
  const { seen, verifier, checkpoint, tree, problems } = input;
  if (seen === undefined) return { ok: true, detail: 'first visit: checkpoint remembered', oldSize: 0 };
  const current = formatVerifierKey(verifier);
  // A state file from before issue 40 did not record the key: the one that opens its checkpoint, if any.
  const remembered = seen.key ?? (openCheckpoint(seen.checkpoint, verifier, verifier.name).ok ? current : 'a key this state file did not record');
  let rotated = '';
  if (remembered !== current) {
    if (input.acceptKey !== current) {
      problems.push(`the log's key changed from ${remembered}, seen last time, to ${current}. If the owner announced this change where you trust them, run once with --accept-key '${current}' (docs/log.md); until then nothing new is remembered`);
      return { ok: false };
    }
    rotated = `; the key change from ${remembered} is accepted`;
  }
  // The remembered checkpoint's signature was checked when it was remembered: its body is what counts now.
  const old = parseCheckpointBody(seen.checkpoint.slice(0, seen.checkpoint.indexOf('\n\n') + 1));
  if (!old.ok) throw new Unreadable(`the checkpoint remembered for this log cannot be read (${old.reason}); move the state file away to start afresh`);
  const { size, rootHash } = old.value;
  if (size > checkpoint.size) {
    problems.push(`the log shrank from ${size} entries, seen last time, to ${checkpoint.size}: a fork or a rollback`);
    return { ok: false };
  }
  const proof = tree.consistencyProof(size);
  if (!verifyConsistency(size, checkpoint.size, proof, rootHash, checkpoint.rootHash)) {
    problems.push(`the log does not extend the tree of ${size} entries seen last time: a fork`);
    return { ok: false };
  }
  return { ok: true, detail: `extends the checkpoint of ${size} entries seen last time (consistency proof of ${proof.length} hashes)${rotated}`, oldSize: size };
}
