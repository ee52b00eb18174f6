/**
 * Asking the witnesses in LOG_WITNESSES to cosign the log's checkpoint (C2SP tlog-witness add-checkpoint),
 * for a publish (scripts/lib/witness-cosignatures.ts, after the log's files are written) and for the
 * running service, which asks again later the witnesses a served checkpoint lacks (cosign-later.ts).
 *
 * - Witnesses are asked in parallel, each for at most `timeoutMs` (LOG_WITNESS_TIMEOUT_SECONDS, at most
 *   30 s) in all: one that is down, refuses, hangs or answers with a cosignature that does not verify is
 *   reported and left out; it never stops a publish.
 * - Each witness is asked at most LOG_WITNESS_QPD times a day, spaced evenly (the rate declared to
 *   witness-network.org): a publish that comes sooner does not ask it, and the running service sends it
 *   the newest checkpoint once its turn comes, so fast publishes are batched into one submission.
 * - The ledger (DATA_DIR/log-witnessing.json) keeps, per witness, when it was last asked and the size it
 *   last cosigned, sent as `old`; a 409 answers with the witness's size, and the request is sent again
 *   from that size with the consistency proof.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import type { MerkleTree } from '../../core/log/merkle.ts';
import { formatAddCheckpointRequest } from '../../core/witness/add-checkpoint.ts';
import { parseCosignerKey, verifyCosignature } from '../../core/log/cosignature.ts';

export type LogWitness = { url: string; key: string };
export type WitnessOutcome = { url: string; ok: boolean; detail: string };
type Fetch = typeof fetch;
type Ledger = { witnesses: Record<string, { last_asked_ms?: number; cosigned_size?: number }> };

export const WITNESSING_LEDGER_FILE = 'log-witnessing.json';
const DAY_MS = 86_400_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export type WitnessingOptions = {
  witnesses: readonly LogWitness[];
  /** The longest the witnesses are waited for, all together (they are asked in parallel). */
  timeoutMs: number;
  /** add-checkpoint requests a day, at most, per witness. */
  qpd: number;
  /** DATA_DIR, where the ledger is kept. */
  dataDir: string;
  fetch?: Fetch;
  now?: () => number;
};

async function readLedger(dataDir: string): Promise<Ledger> {
  try {
    const json = JSON.parse(await readFile(path.join(dataDir, WITNESSING_LEDGER_FILE), 'utf8')) as Ledger;
    return json && typeof json.witnesses === 'object' ? json : { witnesses: {} };
  } catch {
    // Only a pacing aid: without it a witness is asked from `old 0` and answers 409 with its size.
    return { witnesses: {} };
  }
}

/** The note's text: what a cosignature signs. */
export const textOf = (note: string) => note.slice(0, note.lastIndexOf('\n\n') + 1);

/** The witnesses whose valid cosignature `note` lacks. */
export function witnessesLacking(note: string, witnesses: readonly LogWitness[]): LogWitness[] {
  const text = textOf(note);
  const lines = note.slice(text.length + 1).split('\n').filter(Boolean);
  return witnesses.filter(({ key }) => {
    const parsed = parseCosignerKey(key);
    return !parsed.ok || !lines.some((line) => verifyCosignature(text, line, parsed.value) !== undefined);
  });
}

async function readAnswer(res: Response): Promise<string> {
  const bytes = Buffer.from(await res.arrayBuffer());
  return bytes.subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

async function askOne(witness: LogWitness, note: string, tree: MerkleTree, oldSize: number, signal: AbortSignal, fetchImpl: Fetch): Promise<{ line?: string; size?: number; detail: string }> {
  const key = parseCosignerKey(witness.key);
  if (!key.ok) return { detail: `its key: ${key.reason}` };
  const post = (old: number) =>
    fetchImpl(`${witness.url}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: formatAddCheckpointRequest({ oldSize: old, proof: old === 0 ? [] : tree.consistencyProof(old), note }),
      signal,
      redirect: 'error',
    });
  let old = oldSize > tree.size ? 0 : oldSize;
  let res = await post(old);
  if (res.status === 409 && res.headers.get('content-type')?.startsWith('text/x.tlog.size')) {
    const size = Number((await readAnswer(res)).trim());
    if (!Number.isSafeInteger(size) || size < 0) return { detail: 'it answered 409 without a size' };
    if (size > tree.size) return { size, detail: `it has cosigned a larger tree (${size} entries) than this one (${tree.size}): the log has been rolled back` };
    old = size;
    res = await post(old);
  }
  const text = await readAnswer(res);
  if (res.status !== 200) return { detail: `it answered ${res.status}: ${text.slice(0, 300).trim()}` };
  const line = text.split('\n').find((l) => l !== '' && verifyCosignature(textOf(note), l, key.value) !== undefined);
  return line ? { line: `${line}\n`, size: tree.size, detail: 'cosigned' } : { detail: 'its answer holds no valid cosignature by its key' };
}

/**
 * Asks the witnesses whose cosignature `note` lacks and whose turn it is; the note with every new valid
 * cosignature appended, and what each witness asked did (one not yet due is `deferred`).
 */
export async function requestCosignatures(input: { note: string; tree: MerkleTree } & WitnessingOptions): Promise<{ note: string; outcomes: (WitnessOutcome & { deferred?: boolean })[] }> {
  const now = input.now ?? Date.now;
  const ledger = await readLedger(input.dataDir);
  const spacing = DAY_MS / input.qpd;
  const lacking = witnessesLacking(input.note, input.witnesses);
  const due = lacking.filter((w) => now() - (ledger.witnesses[w.url]?.last_asked_ms ?? -Infinity) >= spacing);
  const signal = AbortSignal.timeout(input.timeoutMs);
  for (const w of due) ledger.witnesses[w.url] = { ...ledger.witnesses[w.url], last_asked_ms: now() };
  if (due.length > 0) await replaceFile(path.join(input.dataDir, WITNESSING_LEDGER_FILE), `${JSON.stringify(ledger)}\n`);
  const answers = await Promise.all(
    due.map(async (w) => {
      try {
        return { w, ...(await askOne(w, input.note, input.tree, ledger.witnesses[w.url]?.cosigned_size ?? 0, signal, input.fetch ?? fetch)) };
      } catch (error) {
        const reason = signal.aborted ? `no answer within ${input.timeoutMs / 1000} s` : `no answer: ${(error as Error).cause ?? (error as Error).message}`;
        return { w, detail: reason } as { w: LogWitness; line?: string; size?: number; detail: string };
      }
    }),
  );
  const fresh = await readLedger(input.dataDir);
  for (const a of answers) if (a.size !== undefined) fresh.witnesses[a.w.url] = { ...fresh.witnesses[a.w.url], cosigned_size: a.size };
  if (answers.some((a) => a.size !== undefined)) await replaceFile(path.join(input.dataDir, WITNESSING_LEDGER_FILE), `${JSON.stringify(fresh)}\n`);
  const deferred = lacking.filter((w) => !due.includes(w)).map((w) => ({ url: w.url, ok: false, deferred: true, detail: `not asked: its turn comes ${Math.round(spacing / 60_000)} min after the last request (LOG_WITNESS_QPD ${input.qpd}); the running service asks it then` }));
  return {
    note: input.note + answers.map((a) => a.line ?? '').join(''),
    outcomes: [...answers.map((a) => ({ url: a.w.url, ok: a.line !== undefined, detail: a.detail })), ...deferred],
  };
}
