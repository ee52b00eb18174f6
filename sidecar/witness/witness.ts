/**
 * The sidecar as a witness of other instances' review logs (C2SP tlog-witness v1.0, docs/log.md
 * "Witnessing another business's log"): it cosigns a checkpoint of a log it is configured to witness
 * only when it extends the latest one it cosigned for that origin, and serves that latest cosigned
 * checkpoint to monitors.
 *
 * Its state (each origin's latest cosigned checkpoint) is one JSON file in DATA_DIR. Requests are judged
 * and recorded one at a time, and the file is replaced atomically and durably (fsync of the file and its
 * folder) before the answer, so neither a concurrent request nor a crash can roll its view back.
 *
 * A witness that has started before (its key file exists, or its key is given) and cannot read its state
 * cosigns nothing: a fresh start would accept a split view of any log it witnessed. It says so on every
 * request (503) until the operator puts the state back, or decides to start afresh by writing
 * `{"version":1,"logs":{}}` to the state file. Its key is WITNESS_KEY, or the file DATA_DIR/witness-key
 * created on first start (mode 0600), named `<PUBLIC_URL host and path>/witness`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { formatIssues, parseWithIssues } from '../../core/schemas/issues.ts';
import type { Config } from '../../core/config.ts';
import type { Checkpoint } from '../../core/log/checkpoint.ts';
import { formatPrivateKey, generateSigner, parsePrivateKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from '../../core/log/note.ts';
import { judgeAddCheckpoint } from '../../core/witness/add-checkpoint.ts';
import { asCosigner, cosignCheckpoint, formatCosignerKey } from '../../core/log/cosignature.ts';

export const WITNESS_STATE_FILE = 'witness-state.json';
export const WITNESS_KEY_FILE = 'witness-key';

const StoredLogSchema = z.object({
  size: z.number().int().nonnegative(),
  root_hash: z.string(),
  /** The checkpoint as the monitoring endpoint serves it: the log's verified signatures and our cosignature. */
  checkpoint: z.string(),
});
const StateSchema = z.object({ version: z.literal(1), logs: z.record(z.string(), StoredLogSchema) });
/** The state before version 1 (issue 27): the submitted note, without our cosignature. */
const LegacyStateSchema = z.record(z.string(), z.object({ size: z.number().int().nonnegative(), root_hash: z.string(), note: z.string() }));
type State = z.infer<typeof StateSchema>;

export type WitnessAnswer =
  | { status: 200; cosignature: string }
  | { status: 409; latestSize: number; message: string }
  | { status: 400 | 403 | 404 | 422 | 503; message: string };

export type Witness = {
  /** The witness's cosigner key, as the logs it witnesses configure it (LOG_WITNESSES). */
  vkey: string;
  addCheckpoint(body: string): Promise<WitnessAnswer>;
  /** The latest checkpoint cosigned for the origin whose SHA-256 is `originHash` (lowercase hex), cosignature included. */
  monitoringCheckpoint(originHash: string): { ok: true; checkpoint: string } | { ok: false; status: 404 | 503; message: string };
  /** Why the witness cosigns nothing, when it cannot read its state. */
  locked: string | undefined;
};

/** The witness's name: PUBLIC_URL without its scheme and trailing slash, then `/witness`. */
export function witnessNameOf(publicUrl: string): string {
  return `${publicUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '')}/witness`;
}

export const originHashOf = (origin: string): string => createHash('sha256').update(origin).digest('hex');

async function readIfPresent(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
}

/** The key, and whether it was made now (a first start). */
async function loadKey(config: Config): Promise<{ signer: NoteSigner; created: boolean }> {
  if (config.witness.key) {
    const given = parsePrivateKey(config.witness.key);
    if (!given.ok) throw new Error(`WITNESS_KEY is not a key: ${given.reason}`);
    return { signer: given.value, created: false };
  }
  const file = path.join(config.dataDir, WITNESS_KEY_FILE);
  const text = await readIfPresent(file);
  if (text !== undefined) {
    const read = parsePrivateKey(text);
    if (!read.ok) throw new Error(`${file} is not a witness key: ${read.reason}`);
    return { signer: read.value, created: false };
  }
  const signer = generateSigner(witnessNameOf(config.publicUrl));
  await mkdir(config.dataDir, { recursive: true });
  await replaceFile(file, `${formatPrivateKey(signer)}\n`, { mode: 0o600 });
  return { signer, created: true };
}

/** The state on disk; a reason when it cannot be read, which locks the witness. */
async function loadState(file: string, firstStart: boolean, cosign: (body: string) => string): Promise<{ ok: true; state: State } | { ok: false; reason: string }> {
  let text: string | undefined;
  try {
    text = await readIfPresent(file);
  } catch (error) {
    return { ok: false, reason: `${file} cannot be read (${(error as Error).message})` };
  }
  if (text === undefined) {
    if (firstStart) return { ok: true, state: { version: 1, logs: {} } };
    return { ok: false, reason: `${file} is missing, though this witness has started before` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${file} is not JSON` };
  }
  const current = parseWithIssues(StateSchema, json);
  if (current.ok) return { ok: true, state: current.value };
  const legacy = LegacyStateSchema.safeParse(json);
  if (!legacy.success) return { ok: false, reason: `${file} is not a witness state: ${formatIssues(current.issues, '; ')}` };
  const logs: State['logs'] = {};
  for (const [origin, { size, root_hash, note }] of Object.entries(legacy.data)) {
    const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
    logs[origin] = { size, root_hash, checkpoint: `${note}${cosign(body)}` };
  }
  return { ok: true, state: { version: 1, logs } };
}

/** The witness, or undefined when WITNESS_LOGS names no log. */
export async function openWitness(config: Config, now: () => number = Date.now): Promise<Witness | undefined> {
  if (config.witness.logs.length === 0) return undefined;
  const key = await loadKey(config);
  const cosigner = asCosigner(key.signer);
  const logs = new Map<string, NoteVerifier>();
  for (const text of config.witness.logs) {
    const parsed = parseVerifierKey(text);
    if (!parsed.ok) throw new Error(`WITNESS_LOGS: ${text.slice(0, 80)} is not a log key: ${parsed.reason}`);
    logs.set(parsed.value.name, parsed.value);
  }
  const cosign = (body: string) => cosignCheckpoint(body, cosigner, Math.floor(now() / 1000));
  const stateFile = path.join(config.dataDir, WITNESS_STATE_FILE);
  const loaded = await loadState(stateFile, key.created, cosign);
  const locked = loaded.ok
    ? undefined
    : `This witness cosigns nothing: ${loaded.reason}. Put the state file back from where it was lost, or, to start afresh (accepting that any log it witnessed may then show it another history), write {"version":1,"logs":{}} to ${stateFile} and restart (docs/log.md).`;
  const state: State = loaded.ok ? loaded.state : { version: 1, logs: {} };
  // The first start records its (empty) state at once: from now on a missing file means a lost one.
  if (loaded.ok && key.created) await replaceFile(stateFile, JSON.stringify(state));
  const byHash = new Map(Object.keys(state.logs).map((origin) => [originHashOf(origin), origin]));
  const latestOf = (origin: string): Checkpoint | undefined => {
    const s = Object.hasOwn(state.logs, origin) ? state.logs[origin] : undefined;
    return s && { origin, size: s.size, rootHash: Buffer.from(s.root_hash, 'base64') };
  };
  let queue: Promise<unknown> = Promise.resolve();

  async function judgeAndRecord(body: string): Promise<WitnessAnswer> {
    if (locked) return { status: 503, message: locked };
    const verdict = judgeAddCheckpoint(body, logs, latestOf);
    if (verdict.status !== 200) return verdict;
    const cosignature = cosign(verdict.body);
    // A replay of the tree it holds is cosigned again and not written: the stored checkpoint stays true.
    if (verdict.unchanged) return { status: 200, cosignature };
    const { checkpoint } = verdict;
    const next: State = {
      version: 1,
      logs: { ...state.logs, [checkpoint.origin]: { size: checkpoint.size, root_hash: checkpoint.rootHash.toString('base64'), checkpoint: `${verdict.logSigned}${cosignature}` } },
    };
    try {
      await replaceFile(stateFile, JSON.stringify(next));
    } catch (error) {
      // Not recorded, so not cosigned: the spec's "MUST persist the new checkpoint before responding".
      return { status: 503, message: `The witness could not record the checkpoint (${(error as Error).message}); try again later.` };
    }
    state.logs = next.logs;
    byHash.set(originHashOf(checkpoint.origin), checkpoint.origin);
    return { status: 200, cosignature };
  }

  return {
    vkey: formatCosignerKey(cosigner),
    locked,
    addCheckpoint(body) {
      const answer = queue.then(() => judgeAndRecord(body));
      queue = answer.catch(() => undefined);
      return answer;
    },
    monitoringCheckpoint(originHash) {
      if (locked) return { ok: false, status: 503, message: locked };
      const origin = byHash.get(originHash);
      const stored = origin === undefined ? undefined : state.logs[origin];
      if (!stored) return { ok: false, status: 404, message: 'This witness has never cosigned a checkpoint of that log.' };
      return { ok: true, checkpoint: stored.checkpoint };
    },
  };
}
