/**
 * C2SP tlog-proof@v1: a self-contained, offline-verifiable proof that an entry is in a log.
 *
 *     c2sp.org/tlog-proof@v1
 *     extra <base64 opaque data>          (optional)
 *     index <decimal, no leading zero>
 *     <base64 SHA-256>                    (zero or more: the RFC 6962 §2.1.1 inclusion proof, leaf's sibling first)
 *                                         (an empty line)
 *     <the checkpoint note, verbatim, with its signature and cosignature lines>
 *
 * No Node module here: the browser's check (/log/check/) parses the same way as `npm run verify --proof`.
 */

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** A proof file's size cap: 64 hashes, an extra line of a long review, a checkpoint with many cosignatures. */
export const TLOG_PROOF_MAX_BYTES = 256 * 1024;

export type TlogProof = { extra: Uint8Array | undefined; index: number; proof: Uint8Array[]; checkpoint: string };
type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// Node's Buffer when there is one: the build formats a proof for every review, and btoa over a binary
// string was most of that time.
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'base64'): string } } }).Buffer;

export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Strict standard base64 (RFC 4648 §4, padded); undefined for anything else. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function formatTlogProof(proof: TlogProof): string {
  const extra = proof.extra === undefined ? '' : `extra ${encodeBase64(proof.extra)}\n`;
  const hashes = proof.proof.map((h) => `${encodeBase64(h)}\n`).join('');
  return `${TLOG_PROOF_HEADER}\n${extra}index ${proof.index}\n${hashes}\n${proof.checkpoint}`;
}

/** Reads a tlog-proof; a reason when it is not one. The checkpoint is returned as text, not yet verified. */
export function parseTlogProof(text: string): Parsed<TlogProof> {
  if (text.length > TLOG_PROOF_MAX_BYTES) return { ok: false, reason: `it is over ${TLOG_PROOF_MAX_BYTES} bytes` };
  const lines = text.split('\n');
  if (lines[0] !== TLOG_PROOF_HEADER) return { ok: false, reason: `its first line is not ${TLOG_PROOF_HEADER}` };
  let at = 1;
  let extra: Uint8Array | undefined;
  if (lines[at]?.startsWith('extra ')) {
    extra = decodeBase64(lines[at]!.slice('extra '.length));
    if (extra === undefined) return { ok: false, reason: 'its extra line is not base64' };
    at += 1;
  }
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines[at] ?? '');
  if (!index || !Number.isSafeInteger(Number(index[1]))) return { ok: false, reason: 'it has no "index <n>" line' };
  at += 1;
  const proof: Uint8Array[] = [];
  for (; at < lines.length && lines[at] !== ''; at++) {
    const hash = decodeBase64(lines[at]!);
    if (hash === undefined || hash.length !== 32) return { ok: false, reason: `its line ${at + 1} is not a base64 SHA-256 hash` };
    proof.push(hash);
  }
  if (at >= lines.length) return { ok: false, reason: 'it has no empty line before the checkpoint' };
  // 64 hashes prove any index below 2^64; a longer proof is not one.
  if (proof.length > 64) return { ok: false, reason: 'its inclusion proof has more than 64 hashes' };
  const checkpoint = lines.slice(at + 1).join('\n');
  if (checkpoint === '') return { ok: false, reason: 'it holds no checkpoint' };
  return { ok: true, value: { extra, index: Number(index[1]), proof, checkpoint } };
}
