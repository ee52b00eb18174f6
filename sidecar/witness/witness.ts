/**
 * The sidecar as a witness of other instances' review logs (C2SP tlog-witness, issue 27 item 7): it
 * cosigns a checkpoint of a log it is configured to witness only when it extends the latest one it
 * cosigned for that origin, so businesses can witness each other.
 *
 * Its state (each origin's latest cosigned checkpoint) is one JSON file in DATA_DIR, replaced whole
 * (write, then rename) before the answer; requests are judged and recorded one at a time, so a slow
 * older request can never roll a newer view back. Its key is WITNESS_KEY, or the file
 * DATA_DIR/witness-key created on first start (mode 0600), named `<PUBLIC_URL host and path>/witness`.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import path from 'node:path';
import type { Config } from '../../core/config.ts';
import type { Checkpoint } from '../../core/log/checkpoint.ts';
import { formatPrivateKey, generateSigner, parsePrivateKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from '../../core/log/note.ts';
import { judgeAddCheckpoint } from '../../core/witness/add-checkpoint.ts';
import { asCosigner, cosignCheckpoint, formatCosignerKey } from '../../core/witness/cosignature.ts';

export const WITNESS_STATE_FILE = 'witness-state.json';
export const WITNESS_KEY_FILE = 'witness-key';

type Stored = Record<string, { size: number; root_hash: string; note: string }>;

export type WitnessAnswer =
  | { status: 200; cosignature: string }
  | { status: 409; latestSize: number; message: string }
  | { status: 400 | 403 | 404 | 422; message: string };

export type Witness = {
  /** The witness's cosigner key, as the logs it witnesses configure it (LOG_WITNESSES). */
  vkey: string;
  addCheckpoint(body: string): Promise<WitnessAnswer>;
};

/** The witness's name: PUBLIC_URL without its scheme and trailing slash, then `/witness`. */
export function witnessNameOf(publicUrl: string): string {
  return `${publicUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '')}/witness`;
}

async function loadKey(config: Config): Promise<NoteSigner> {
  if (config.witness.key) {
    const given = parsePrivateKey(config.witness.key);
    if (!given.ok) throw new Error(`WITNESS_KEY is not a key: ${given.reason}`);
    return given.value;
  }
  const file = path.join(config.dataDir, WITNESS_KEY_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (text !== undefined) {
    const read = parsePrivateKey(text);
    if (!read.ok) throw new Error(`${file} is not a witness key: ${read.reason}`);
    return read.value;
  }
  const key = generateSigner(witnessNameOf(config.publicUrl));
  await mkdir(config.dataDir, { recursive: true });
  await replaceFile(file, `${formatPrivateKey(key)}\n`, { mode: 0o600 });
  return key;
}

/** The witness, or undefined when WITNESS_LOGS names no log. */
export async function openWitness(config: Config, now: () => number = Date.now): Promise<Witness | undefined> {
  if (config.witness.logs.length === 0) return undefined;
  const cosigner = asCosigner(await loadKey(config));
  const logs = new Map<string, NoteVerifier>();
  for (const text of config.witness.logs) {
    const key = parseVerifierKey(text);
    if (!key.ok) throw new Error(`WITNESS_LOGS: ${text.slice(0, 80)} is not a log key: ${key.reason}`);
    logs.set(key.value.name, key.value);
  }
  const stateFile = path.join(config.dataDir, WITNESS_STATE_FILE);
  const stored: Stored = JSON.parse(await readFile(stateFile, 'utf8').catch(() => '{}'));
  const latestOf = (origin: string): Checkpoint | undefined => {
    const s = Object.hasOwn(stored, origin) ? stored[origin] : undefined;
    return s && { origin, size: s.size, rootHash: Buffer.from(s.root_hash, 'base64') };
  };
  let queue: Promise<unknown> = Promise.resolve();

  async function judgeAndRecord(body: string): Promise<WitnessAnswer> {
    const verdict = judgeAddCheckpoint(body, logs, latestOf);
    if (verdict.status !== 200) return verdict;
    const { checkpoint } = verdict;
    stored[checkpoint.origin] = { size: checkpoint.size, root_hash: checkpoint.rootHash.toString('base64'), note: body.slice(body.indexOf('\n\n') + 2) };
    await replaceFile(stateFile, JSON.stringify(stored, null, 2));
    return { status: 200, cosignature: cosignCheckpoint(verdict.body, cosigner, Math.floor(now() / 1000)) };
  }

  return {
    vkey: formatCosignerKey(cosigner),
    addCheckpoint(body) {
      const answer = queue.then(() => judgeAndRecord(body));
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
