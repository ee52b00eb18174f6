/**
 * Checks a review's C2SP tlog-proof (proof-format.ts) the way tlog-proof.md §"Verifying a tlog proof" says,
 * with Web Crypto's Ed25519 and sha256.ts (no Node module), so the same code runs in `npm run verify --proof`
 * and in the browser's check page (/log/check/):
 *
 * 1. the leaf: the proof's extra carries the log entry's exact text and the review as logged; the entry's
 *    digest must be the review's (review-digest-input.ts), and its id, date and rating the review's; the
 *    leaf hash is SHA-256(0x00 ‖ entry) (RFC 6962 §2.1);
 * 2. the checkpoint (tlog-checkpoint, signed-note): its origin is the log key's name, and a signature line
 *    by that key (name and key id, type 0x01) verifies over the note text;
 * 3. the cosignatures (tlog-cosignature, Ed25519 `cosignature/v1`, type 0x04) of the witnesses given; the
 *    quorum decides whether those that verify are enough;
 * 4. the inclusion proof (RFC 9162 §2.1.3.2) binds the leaf at `index` to the checkpoint's root.
 *
 * Expected failures are values: `{ ok: false, reason }`, the reason a sentence for a person.
 */
import { decodeBase64, encodeBase64, parseTlogProof } from './proof-format.ts';
import { reviewDigestInput } from './review-digest-input.ts';
import { sha256 } from './sha256.ts';

export type VerifierKey = { name: string; keyId: number; type: number; publicKey: Uint8Array; text: string };
/** The keys a reader trusts: the log's, the witnesses', and when the cosignatures that verify are enough. */
export type ProofTrust = { log: VerifierKey; witnesses: readonly VerifierKey[]; quorum: (cosigned: ReadonlySet<string>) => boolean };
/** An entry as its proof carries it (core/log/entry.ts): an update says what kind of change it was, and the rating it replaced. */
export type LoggedEntry = { action: string; review_id: string; time: string; date: string; rating: number; digest: string; change?: string; reason?: string; previous_rating?: number };
export type ProofCheck =
  | { ok: true; index: number; size: number; origin: string; entry: LoggedEntry; review: Record<string, unknown>; witnesses: { name: string; time: number }[] }
  | { ok: false; reason: string; index?: number; entry?: LoggedEntry };

const SIGNED_NOTE_ED25519 = 0x01;
export const COSIGNATURE_ED25519 = 0x04;
const encoder = new TextEncoder();


function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** signed-note §"Verifier keys": `<name>+<hex key id>+<base64(type ‖ key)>`, Ed25519 of `type` only; the id must match. */
export function parseVerifierKeyText(text: string, type: number): { ok: true; value: VerifierKey } | { ok: false; reason: string } {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(text.trim());
  if (!m) return { ok: false, reason: 'it is not <name>+<8 hex key id>+<base64 key>' };
  const raw = decodeBase64(m[3]!);
  if (raw === undefined || raw.length !== 33 || raw[0] !== type) return { ok: false, reason: `it is not an Ed25519 key of signature type 0x0${type}` };
  const id = new DataView((sha256(concat(encoder.encode(`${m[1]}\n`), raw))).buffer).getUint32(0);
  if (id !== parseInt(m[2]!, 16)) return { ok: false, reason: 'its key id does not match its name and key' };
  return { ok: true, value: { name: m[1]!, keyId: id, type, publicKey: raw.subarray(1), text: text.trim() } };
}

async function ed25519Verify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify({ name: 'Ed25519' }, key, signature as Uint8Array<ArrayBuffer>, message as Uint8Array<ArrayBuffer>);
}

export type SignatureLine = { name: string; keyId: number; bytes: Uint8Array };

/** Splits a signed note at its last blank line: the text (with its final newline) and its signature lines. */
export function splitNote(note: string): { text: string; signatures: SignatureLine[] } | undefined {
  const split = note.lastIndexOf('\n\n');
  // signed-note: valid UTF-8 with no control character but newline.
  if (split < 0 || !note.endsWith('\n') || /[\u0000-\u0009\u000b-\u001f]/.test(note)) return undefined;
  const signatures: SignatureLine[] = [];
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    const bytes = m ? decodeBase64(m[2]!) : undefined;
    if (!m || bytes === undefined || bytes.length < 5) return undefined;
    signatures.push({ name: m[1]!, keyId: new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), bytes: bytes.subarray(4) });
  }
  return { text: note.slice(0, split + 1), signatures };
}

/** RFC 9162 §2.1.3.2: the root that `proof` makes from the leaf hash at `index` of a tree of `size`; undefined when it cannot. */
function rootFromInclusionProof(leafHash: Uint8Array, index: number, size: number, proof: readonly Uint8Array[]): Uint8Array | undefined {
  if (index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(concat(Uint8Array.of(1), p, r));
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = sha256(concat(Uint8Array.of(1), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
}

/** The extra of a review's proof: `{"entry":"<the entry's exact text>","review":<the review's digest fields>}`. */
export function formatReviewProofExtra(entryText: string, review: Readonly<Record<string, unknown>>): Uint8Array {
  return encoder.encode(`{"entry":${JSON.stringify(entryText)},"review":${reviewDigestInput(review)}}`);
}

function readExtra(extra: Uint8Array | undefined): { entryText: string; entry: LoggedEntry; review: Record<string, unknown> } | undefined {
  if (extra === undefined) return undefined;
  try {
    const json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(extra)) as { entry?: unknown; review?: unknown };
    if (typeof json.entry !== 'string' || typeof json.review !== 'object' || json.review === null || Array.isArray(json.review)) return undefined;
    const entry = JSON.parse(json.entry) as LoggedEntry;
    if (typeof entry !== 'object' || entry === null) return undefined;
    return { entryText: json.entry, entry, review: json.review as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/**
 * Checks one review's proof. `review`: the review as the reader has it (from /reviews.json, MCP
 * get_review, …); by default the one the proof's extra carries, which then must itself match the entry.
 */
export async function checkReviewProof(text: string, trust: ProofTrust, review?: Readonly<Record<string, unknown>>): Promise<ProofCheck> {
  const parsed = parseTlogProof(text);
  if (!parsed.ok) return { ok: false, reason: `The proof cannot be read: ${parsed.reason}.` };
  const { index, proof, checkpoint } = parsed.value;
  const extra = readExtra(parsed.value.extra);
  if (extra === undefined) return { ok: false, index, reason: 'The proof does not carry the log entry and the review it proves.' };
  const { entry } = extra;
  const shown = review ?? extra.review;

  // 1. The leaf, from the review.
  if (entry.action !== 'publish' && entry.action !== 'update') return { ok: false, index, entry, reason: `Entry ${index} is a ${String(entry.action)}, not the publication of a review.` };
  if (shown.id !== entry.review_id) return { ok: false, index, entry, reason: `The proof is for review ${String(entry.review_id)}, not ${String(shown.id)}.` };
  const digest = encodeBase64(sha256(encoder.encode(reviewDigestInput(shown))));
  if (digest !== entry.digest || shown.date !== entry.date || shown.rating !== entry.rating) {
    return { ok: false, index, entry, reason: `This review is not the one logged at entry ${index}: its words, rating, date, author or reply were changed after it was logged.` };
  }
  const leafHash = sha256(concat(Uint8Array.of(0), encoder.encode(extra.entryText)));

  // 2. The log's signature.
  const note = splitNote(checkpoint);
  if (note === undefined) return { ok: false, index, entry, reason: 'The proof\'s checkpoint is not a signed note.' };
  const body = /^([^\n]+)\n(0|[1-9][0-9]{0,15})\n([A-Za-z0-9+/]{43}=)\n/.exec(note.text);
  const root = body ? decodeBase64(body[3]!) : undefined;
  if (!body || root === undefined || !Number.isSafeInteger(Number(body[2]))) return { ok: false, index, entry, reason: 'The proof\'s checkpoint is not a tlog checkpoint (origin, size, root hash).' };
  const [, origin, sizeText] = body;
  const size = Number(sizeText);
  if (origin !== trust.log.name) return { ok: false, index, entry, reason: `The checkpoint is for the log ${origin}, not ${trust.log.name}.` };
  const logLines = note.signatures.filter((s) => s.name === trust.log.name && s.keyId === trust.log.keyId);
  const textBytes = encoder.encode(note.text);
  let signed = false;
  for (const line of logLines) {
    if (line.bytes.length !== 64 || !(await ed25519Verify(trust.log.publicKey, line.bytes, textBytes))) {
      return { ok: false, index, entry, reason: 'The checkpoint\'s signature by the business\'s key does not verify.' };
    }
    signed = true;
  }
  if (!signed) return { ok: false, index, entry, reason: `The checkpoint is not signed by the business's key (${trust.log.text}).` };

  // 3. The witnesses' cosignatures.
  const witnesses: { name: string; time: number }[] = [];
  for (const key of trust.witnesses) {
    for (const line of note.signatures.filter((s) => s.name === key.name && s.keyId === key.keyId)) {
      if (line.bytes.length !== 8 + 64) continue;
      const view = new DataView(line.bytes.buffer, line.bytes.byteOffset);
      const time = Number(view.getBigUint64(0));
      const message = concat(encoder.encode(`cosignature/v1\ntime ${time}\n`), textBytes);
      if (await ed25519Verify(key.publicKey, line.bytes.subarray(8), message)) witnesses.push({ name: key.name, time });
    }
  }
  if (!trust.quorum(new Set(witnesses.map((w) => w.name)))) {
    const missing = trust.witnesses.filter((w) => !witnesses.some((c) => c.name === w.name)).map((w) => w.name);
    return { ok: false, index, entry, reason: `The checkpoint lacks the witnesses the policy asks for: ${witnesses.length} cosigned, not ${missing.join(', ')}.` };
  }

  // 4. The inclusion proof.
  const made = rootFromInclusionProof(leafHash, index, size, proof);
  if (made === undefined || !equalBytes(made, root)) return { ok: false, index, entry, reason: `The inclusion proof does not show entry ${index} in the log of ${size} entries the business signed.` };
  return { ok: true, index, size, origin, entry, review: { ...shown }, witnesses };
}
