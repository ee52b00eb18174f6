/**
 * C2SP tlog-cosignature, Ed25519 (`cosignature/v1`): a witness's statement that, at a time, the checkpoint
 * is the largest consistent tree it has seen for the log named by the origin line.
 *
 * The signed message is `cosignature/v1\ntime <unix seconds>\n` then the checkpoint's whole note body. The
 * signature line is a signed-note line, `— <witness name> base64(key id ‖ u64 timestamp ‖ signature)`,
 * whose key id is SHA-256(name ‖ "\n" ‖ 0x04 ‖ public key)[:4]; the witness's verifier key reads
 * `<name>+<id>+<base64(0x04 ‖ public key)>`. Our witness keeps its key in Go's Ed25519 private-key text
 * (core/log/note.ts); only the algorithm byte of its id and vkey differs.
 */
import { createHash, sign, verify, createPublicKey } from 'node:crypto';
import type { NoteSigner, NoteVerifier } from './note.ts';

const COSIGNATURE_V1 = 0x04;
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_PREFIX = '\u2014 ';

export function computeCosignerKeyId(name: string, publicKey: Uint8Array): number {
  return createHash('sha256').update(name).update(Buffer.of(0x0a, COSIGNATURE_V1)).update(publicKey).digest().readUInt32BE(0);
}

/** The witness's key as a cosigner: same name and key, the cosignature key id. */
export function asCosigner(signer: NoteSigner): NoteSigner {
  return { ...signer, keyId: computeCosignerKeyId(signer.name, signer.publicKey) };
}

export function formatCosignerKey(key: NoteVerifier): string {
  return `${key.name}+${key.keyId.toString(16).padStart(8, '0')}+${Buffer.concat([Buffer.of(COSIGNATURE_V1), key.publicKey]).toString('base64')}`;
}

export function parseCosignerKey(text: string): { ok: true; value: NoteVerifier } | { ok: false; reason: string } {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (!m) return { ok: false, reason: 'it is not <name>+<8 hex id>+<base64 key>' };
  const key = Buffer.from(m[3]!, 'base64');
  if (key.length !== 33 || key[0] !== COSIGNATURE_V1) return { ok: false, reason: 'it is not an Ed25519 cosigner key (algorithm byte 0x04, 32 bytes)' };
  const publicKey = key.subarray(1);
  if (computeCosignerKeyId(m[1]!, publicKey) !== parseInt(m[2]!, 16)) return { ok: false, reason: 'its key id does not match its name and key' };
  return { ok: true, value: { name: m[1]!, keyId: parseInt(m[2]!, 16), publicKey } };
}

function message(body: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, 'utf8');
}

/** The signature line (with its newline) cosigning the checkpoint `body` at `timestamp` (unix seconds). */
export function cosignCheckpoint(body: string, cosigner: NoteSigner, timestamp: number): string {
  const head = Buffer.alloc(12);
  head.writeUInt32BE(cosigner.keyId, 0);
  head.writeBigUInt64BE(BigInt(timestamp), 4);
  const signature = sign(null, message(body, timestamp), cosigner.privateKey);
  return `${SIGNATURE_PREFIX}${cosigner.name} ${Buffer.concat([head, signature]).toString('base64')}\n`;
}

/** The timestamp of `line` when it is `key`'s valid cosignature of `body`; undefined otherwise. */
export function verifyCosignature(body: string, line: string, key: NoteVerifier): number | undefined {
  const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})\n?$/u.exec(line);
  if (!m || m[1] !== key.name) return undefined;
  const raw = Buffer.from(m[2]!, 'base64');
  if (raw.length !== 4 + 8 + 64 || raw.readUInt32BE(0) !== key.keyId) return undefined;
  const timestamp = Number(raw.readBigUInt64BE(4));
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, key.publicKey]), format: 'der', type: 'spki' });
  return verify(null, message(body, timestamp), publicKey, raw.subarray(12)) ? timestamp : undefined;
}
