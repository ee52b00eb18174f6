/**
 * The publish's witnessing step (docs/log.md "Witnesses"), on the new build's `log/` folder before it is
 * swapped in: the witnesses in LOG_WITNESSES are asked to cosign the checkpoint
 * (sidecar/witness/request-cosignatures.ts: in parallel, bounded, paced), and the site's own C2SP
 * tlog-policy is written beside it as `log/policy`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import type { MerkleTree } from '../../core/log/merkle.ts';
import { formatTlogPolicy } from '../../core/log/policy.ts';
import { requestCosignatures, type LogWitness, type WitnessingOptions } from '../../sidecar/witness/request-cosignatures.ts';

/** A witness's name in the site's policy: its key's name (the host and path it cosigns as). */
const policyNameOf = (key: string) => key.slice(0, key.indexOf('+')).replace(/[^A-Za-z0-9._/-]/g, '-');

/**
 * The site's own C2SP tlog-policy, served at /log/policy: its log key, the witnesses it asks (with their
 * submission prefix) and, as quorum, a majority of them (`quorum none` without witnesses).
 */
export function renderSitePolicy(logVkey: string, witnesses: readonly LogWitness[]): string {
  return formatTlogPolicy({
    log: logVkey.trim(),
    witnesses: witnesses.map((w) => ({ name: policyNameOf(w.key), vkey: w.key, url: w.url })),
    threshold: Math.floor(witnesses.length / 2) + 1,
  });
}

/** The site's policy, written as `log/policy` in the new build beside the log's `vkey`. */
export async function writeSitePolicy(logDir: string, witnesses: readonly LogWitness[]): Promise<void> {
  const vkey = await readFile(path.join(logDir, 'vkey'), 'utf8');
  await replaceFile(path.join(logDir, 'policy'), renderSitePolicy(vkey, witnesses));
}

/** The publish's witnessing: `note` with the cosignatures of the witnesses asked (for at most `timeoutMs`), each outcome reported. */
export async function cosignForPublish(input: { note: string; tree: MerkleTree; report: (line: string) => void } & WitnessingOptions): Promise<string> {
  if (input.witnesses.length === 0) return input.note;
  const cosigned = await requestCosignatures(input);
  for (const o of cosigned.outcomes) input.report(`Witness ${o.url}: ${o.ok ? 'cosigned the checkpoint' : o.deferred ? o.detail : `no cosignature (${o.detail}); the running service asks it again later`}.`);
  return cosigned.note;
}
