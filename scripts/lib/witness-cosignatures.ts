/**
 * A publish asks the witnesses in LOG_WITNESSES to cosign the new checkpoint (C2SP tlog-witness), and
 * appends each valid cosignature to the checkpoint note. A witness that is down, refuses, or answers
 * with a cosignature that does not verify is reported and left out: it never blocks a publish.
 *
 * The log keeps no record of what each witness saw: it sends `old 0` first, and when the witness
 * answers 409 with the size it last cosigned, sends again from that size with the consistency proof.
 */
import type { MerkleTree } from '../../core/log/merkle.ts';
import { formatAddCheckpointRequest } from '../../core/witness/add-checkpoint.ts';
import { parseCosignerKey, verifyCosignature } from '../../core/witness/cosignature.ts';

export type WitnessOutcome = { url: string; ok: boolean; detail: string };
type Fetch = typeof fetch;

const TIMEOUT_MS = 10_000;

async function askOne(url: string, keyText: string, note: string, tree: MerkleTree, fetchImpl: Fetch): Promise<{ line?: string; detail: string }> {
  const key = parseCosignerKey(keyText);
  if (!key.ok) return { detail: `its key: ${key.reason}` };
  const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const post = (oldSize: number) =>
    fetchImpl(`${url}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: formatAddCheckpointRequest({ oldSize, proof: oldSize === 0 ? [] : tree.consistencyProof(oldSize), note }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  let res = await post(0);
  if (res.status === 409 && res.headers.get('content-type')?.startsWith('text/x.tlog.size')) {
    const size = Number((await res.text()).trim());
    if (!Number.isSafeInteger(size) || size > tree.size) return { detail: `it has cosigned a larger tree (${size} entries) than this one (${tree.size}): the log has been rolled back` };
    res = await post(size);
  }
  const text = await res.text();
  if (res.status !== 200) return { detail: `it answered ${res.status}: ${text.slice(0, 300).trim()}` };
  const line = text.split('\n').find((l) => l !== '' && verifyCosignature(body, l, key.value) !== undefined);
  return line ? { line: `${line}\n`, detail: 'cosigned' } : { detail: 'its answer holds no valid cosignature by its key' };
}

/** The checkpoint note with every witness's valid cosignature appended, and what each witness did. */
export async function requestCosignatures(input: {
  note: string;
  tree: MerkleTree;
  witnesses: readonly { url: string; key: string }[];
  fetch?: Fetch;
}): Promise<{ note: string; outcomes: WitnessOutcome[] }> {
  const outcomes = await Promise.all(
    input.witnesses.map(async ({ url, key }) => {
      try {
        return { url, ...(await askOne(url, key, input.note, input.tree, input.fetch ?? fetch)) };
      } catch (error) {
        return { url, detail: `no answer: ${(error as Error).message}` };
      }
    }),
  );
  return {
    note: input.note + outcomes.map((o) => o.line ?? '').join(''),
    outcomes: outcomes.map((o) => ({ url: o.url, ok: o.line !== undefined, detail: o.detail })),
  };
}
