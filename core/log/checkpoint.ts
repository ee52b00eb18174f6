/**
 * C2SP tlog-checkpoint: the signed tree head. Its body is three lines, `<origin>`, `<tree size>` in decimal
 * and `<base64 root hash>`, each ending in a newline (extension lines may follow; we write none), signed as
 * a note (note.ts) by a key named after the origin.
 */
import { HASH_SIZE } from './merkle.ts';
import { openNote, signNote, type NoteSigner, type NoteVerifier } from './note.ts';

export type Checkpoint = { origin: string; size: number; rootHash: Buffer };

export function formatCheckpointBody(checkpoint: Checkpoint): string {
  return `${checkpoint.origin}\n${checkpoint.size}\n${checkpoint.rootHash.toString('base64')}\n`;
}

/** Reads a checkpoint body; a reason when it is not one. */
export function parseCheckpointBody(text: string): { ok: true; value: Checkpoint } | { ok: false; reason: string } {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '') return { ok: false, reason: 'a checkpoint has an origin, a size and a root hash line' };
  const [origin, size, root] = lines as [string, string, string];
  if (origin === '') return { ok: false, reason: 'the checkpoint has no origin line' };
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) return { ok: false, reason: `the tree size ${JSON.stringify(size.slice(0, 30))} is not a decimal number` };
  const rootHash = Buffer.from(root, 'base64');
  if (rootHash.length !== HASH_SIZE || rootHash.toString('base64') !== root) return { ok: false, reason: 'the root hash is not 32 bytes of base64' };
  return { ok: true, value: { origin, size: Number(size), rootHash } };
}

export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): string {
  return signNote(formatCheckpointBody(checkpoint), signer);
}

/** Opens a signed checkpoint with `verifier` and checks its origin is `origin`. */
export function openCheckpoint(note: string, verifier: NoteVerifier, origin: string): { ok: true; value: Checkpoint } | { ok: false; reason: string } {
  const opened = openNote(note, verifier);
  if (!opened.ok) return opened;
  const body = parseCheckpointBody(opened.value.text);
  if (!body.ok) return body;
  if (body.value.origin !== origin) return { ok: false, reason: `the checkpoint is for ${JSON.stringify(body.value.origin)}, not ${JSON.stringify(origin)}` };
  return body;
}
