/**
 * C2SP tlog-witness `add-checkpoint`: the request a log sends a witness, and the witness's judgement.
 *
 * The request body is `old <size>\n`, up to 63 base64 consistency-proof lines, an empty line, then the
 * signed checkpoint. The witness cosigns only a checkpoint signed by a log it knows (404 for an unknown
 * origin, 403 when no known key signed it) that extends the latest checkpoint it cosigned for that
 * origin: `old` must be no larger than the new size (400) and that checkpoint's size (409 with
 * `text/x.tlog.size` otherwise); a proof from `old 0` must be empty, a tree of the same size must have the
 * same root, and the RFC 6962 consistency proof must verify (each 422). The caller checks and records
 * atomically, so two requests can never roll the witness's view back.
 */
import { parseCheckpointBody, type Checkpoint } from '../log/checkpoint.ts';
import { EMPTY_TREE_HASH, verifyConsistency } from '../log/merkle.ts';
import { openNote, type NoteVerifier } from '../log/note.ts';

const MAX_PROOF_LINES = 63;

export type AddCheckpointRequest = { oldSize: number; proof: Buffer[]; note: string };

export function formatAddCheckpointRequest(request: AddCheckpointRequest): string {
  return `old ${request.oldSize}\n${request.proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${request.note}`;
}

export function parseAddCheckpointRequest(body: string): { ok: true; value: AddCheckpointRequest } | { ok: false; reason: string } {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return { ok: false, reason: 'the body has no empty line before the checkpoint' };
  const [oldLine, ...proofLines] = body.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]{0,15})$/.exec(oldLine ?? '');
  if (!old || !Number.isSafeInteger(Number(old[1]))) return { ok: false, reason: 'the first line is not "old <size>"' };
  if (proofLines.length > MAX_PROOF_LINES) return { ok: false, reason: `more than ${MAX_PROOF_LINES} consistency proof lines` };
  const proof: Buffer[] = [];
  for (const line of proofLines) {
    const hash = Buffer.from(line, 'base64');
    if (hash.length !== 32 || hash.toString('base64') !== line) return { ok: false, reason: 'a consistency proof line is not a base64 SHA-256 hash' };
    proof.push(hash);
  }
  return { ok: true, value: { oldSize: Number(old[1]), proof, note: body.slice(blank + 2) } };
}

export type AddCheckpointVerdict =
  | {
      status: 200;
      checkpoint: Checkpoint;
      /** The checkpoint's note text (what a cosignature signs). */
      body: string;
      /** The text and the log's own signature lines that verified: what the monitoring checkpoint serves, with the cosignature. */
      logSigned: string;
      /** The witness already holds this very tree: nothing to record. */
      unchanged: boolean;
    }
  | { status: 400 | 403 | 404 | 422; message: string }
  | { status: 409; message: string; latestSize: number };

/** The note's text and its signature lines by `key` (which openNote has verified): the rest, unknown keys' lines, dropped. */
function keepSignaturesOf(note: string, key: NoteVerifier): string {
  const split = note.lastIndexOf('\n\n');
  const id = Buffer.alloc(4);
  id.writeUInt32BE(key.keyId);
  const prefix = `\u2014 ${key.name} `;
  const lines = note
    .slice(split + 2, -1)
    .split('\n')
    .filter((line) => line.startsWith(prefix) && Buffer.from(line.slice(prefix.length), 'base64').subarray(0, 4).equals(id));
  return `${note.slice(0, split + 1)}\n${lines.map((l) => `${l}\n`).join('')}`;
}

/**
 * Judges a request against the logs the witness knows (by origin) and the latest checkpoint it
 * cosigned for each, in the order tlog-witness §add-checkpoint gives the checks. On 200 the caller
 * records `checkpoint` (unless `unchanged`) and cosigns `body`, atomically with this judgement.
 */
export function judgeAddCheckpoint(body: string, logs: ReadonlyMap<string, NoteVerifier>, latestOf: (origin: string) => Checkpoint | undefined): AddCheckpointVerdict {
  const request = parseAddCheckpointRequest(body);
  if (!request.ok) return { status: 400, message: request.reason };
  const { oldSize, proof, note } = request.value;
  const origin = note.slice(0, Math.max(0, note.indexOf('\n')));
  const key = logs.get(origin);
  if (!key) return { status: 404, message: `this witness does not witness the log ${JSON.stringify(origin.slice(0, 100))}` };
  // signed-note: a known key's line that fails to verify makes the note malformed; no known line, untrusted. Both 403.
  const opened = openNote(note, key);
  if (!opened.ok) return { status: 403, message: `the checkpoint is not signed by the key this witness knows for ${origin}: ${opened.reason}` };
  const parsed = parseCheckpointBody(opened.value.text);
  if (!parsed.ok) return { status: 400, message: parsed.reason };
  const checkpoint = parsed.value;
  if (oldSize > checkpoint.size) return { status: 400, message: `old size ${oldSize} is larger than the checkpoint's ${checkpoint.size}` };
  const latest = latestOf(origin);
  const latestSize = latest?.size ?? 0;
  if (oldSize !== latestSize) return { status: 409, message: `the latest checkpoint cosigned for ${origin} has ${latestSize} entries`, latestSize };
  if (checkpoint.size === 0 && !checkpoint.rootHash.equals(EMPTY_TREE_HASH)) return { status: 422, message: 'a checkpoint of size 0 must have the empty tree\'s root hash' };
  if (oldSize === 0 && proof.length > 0) return { status: 422, message: 'a consistency proof from old size 0 must be empty' };
  if (latest && latest.size === checkpoint.size && !latest.rootHash.equals(checkpoint.rootHash)) {
    return { status: 422, message: `another tree of ${latestSize} entries was cosigned for ${origin}: a split view` };
  }
  if (latest && latest.size > 0 && !verifyConsistency(latest.size, checkpoint.size, proof, latest.rootHash, checkpoint.rootHash)) {
    return { status: 422, message: `the consistency proof does not show the checkpoint extends the tree of ${latest.size} entries cosigned for ${origin}` };
  }
  const unchanged = latest !== undefined && latest.size === checkpoint.size;
  return { status: 200, checkpoint, body: opened.value.text, logSigned: keepSignaturesOf(note, key), unchanged };
}
