/**
 * `npm run verify -- --proof <file> --review <json file> (--key <vkey or file> | --policy <file or url>)`:
 * checks one review's C2SP tlog-proof offline (docs/verification.md "A proof for every review"), with
 * core/log/proof-check.ts, the code the browser's check page runs: the review given is the one the log
 * holds at the proof's index, the checkpoint is signed by the log's key, the witnesses of a C2SP
 * tlog-policy (the reader's own, or the site's) cosigned it to its quorum, and the inclusion proof binds
 * the entry to that checkpoint. `--key` alone trusts the log's key and asks for no witness.
 * Exit 0 when all holds, 1 with a `problem:` line when it does not, 2 when an input cannot be read.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { policyTrust } from '../core/log/policy.ts';
import { checkReviewProof, parseVerifierKeyText, type ProofTrust } from '../core/log/proof-check.ts';
import { parseTlogProof } from '../core/log/proof-format.ts';
import { toPrintable } from '../core/text/printable.ts';

const USAGE = 'Usage: npm run verify -- --proof <file.tlog-proof> --review <review.json> (--key <vkey or file> | --policy <tlog-policy file or url>)';
/** A proof or a review file past this is not one (a proof is a few kilobytes). */
const MAX_INPUT_BYTES = 1 << 20;

/** Anything an entry or a review says, printed without the control characters that could rewrite a terminal. */
const printable = (value: unknown) => toPrintable(String(value));

class Unreadable extends Error {}

async function readInput(file: string, what: string): Promise<string> {
  const bytes = await readFile(file).catch((error: Error) => {
    throw new Unreadable(`the ${what} ${file} cannot be read: ${error.message}`);
  });
  if (bytes.length > MAX_INPUT_BYTES) throw new Unreadable(`the ${what} ${file} is over ${MAX_INPUT_BYTES} bytes`);
  return bytes.toString('utf8');
}

/** A review as /reviews.json serves it, or MCP get_review's result (`{ review }`). */
function readReview(text: string, file: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Unreadable(`the review ${file} is not JSON`);
  }
  const review = typeof json === 'object' && json !== null && 'review' in json ? (json as { review: unknown }).review : json;
  if (typeof review !== 'object' || review === null || Array.isArray(review) || typeof (review as { id?: unknown }).id !== 'string') {
    throw new Unreadable(`the review ${file} is not a review (an object with an "id")`);
  }
  return review as Record<string, unknown>;
}

/**
 * What the reader trusts: the policy's log key (for the proof's origin) or the `--key` given, and the
 * policy's witnesses and quorum, or none. Imported only for --policy, like verify's own.
 */
async function readTrust(values: { key?: string; policy?: string }, proofText: string): Promise<ProofTrust> {
  let log;
  if (values.key !== undefined) {
    const keyText = values.key.includes('+') ? values.key : await readInput(values.key, 'key file');
    const key = parseVerifierKeyText(keyText, 0x01);
    if (!key.ok) throw new Unreadable(`the key given with --key is not a log verifier key: ${key.reason}`);
    log = key.value;
  }
  if (values.policy === undefined) return { log: log!, witnesses: [], quorum: () => true };
  const loaded = await (await import('./lib/verify-policy.ts')).loadPolicy(values.policy);
  if (!loaded.ok) throw new Unreadable(loaded.message);
  const parsed = parseTlogProof(proofText);
  const origin = parsed.ok ? parsed.value.checkpoint.slice(0, parsed.value.checkpoint.indexOf('\n')) : '';
  const trust = policyTrust(loaded.policy, origin);
  return log === undefined ? trust : { ...trust, log };
}

async function run(argv: readonly string[]): Promise<number> {
  let values: { proof?: string; review?: string; key?: string; policy?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { proof: { type: 'string' }, review: { type: 'string' }, key: { type: 'string' }, policy: { type: 'string' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.proof === undefined || values.review === undefined || (values.key === undefined && values.policy === undefined)) {
    console.error(USAGE);
    return 2;
  }
  const proof = await readInput(values.proof, 'proof');
  const trust = await readTrust(values, proof);
  const review = readReview(await readInput(values.review, 'review'), values.review);

  const result = await checkReviewProof(proof, trust, review);
  if (!result.ok) {
    console.error(`problem: ${printable(result.reason)}`);
    console.log(`FAILED: review ${printable(review.id)} is not shown to be in the log.`);
    return 1;
  }
  const { entry } = result;
  console.log(`Proof: review ${printable(entry.review_id)} is entry ${result.index} of ${printable(result.origin)} (${result.size} entries), a ${printable(entry.action)} of ${printable(entry.time)}.`);
  if (entry.action === 'update') {
    const rating = entry.previous_rating === undefined ? 'its rating unchanged' : `its rating ${printable(String(entry.previous_rating))} → ${printable(String(entry.rating))}`;
    console.log(`Change: not the review as first published; this entry changed it (${printable(entry.change ?? 'kind not recorded')}), ${rating}. Its earlier entries are in the log.`);
  }
  console.log(`Signature: the checkpoint is signed by ${printable(trust.log.text)}.`);
  if (values.policy !== undefined) {
    const names = result.witnesses.map((w) => printable(w.name));
    console.log(`Policy: its quorum is met; cosigned by ${names.length === 0 ? 'no witness' : names.join(', ')}.`);
  }
  console.log('Review: its digest, date and rating are the entry\'s.');
  console.log('OK: this review is the one the log holds.');
  return 0;
}

export async function verifyProofCommand(argv: readonly string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    console.error(`Cannot verify: ${printable(error.message)}`);
    return 2;
  }
}
