/**
 * C2SP signed-note with Ed25519, as Go's golang.org/x/mod/sumdb/note writes it.
 *
 * A note is UTF-8 text ending in a newline, then a blank line, then one line per signature:
 * `— <name> <base64(key id ‖ signature)>`. The key id is the first 4 bytes (big-endian) of
 * SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key); 0x01 names Ed25519. The signature covers the text only.
 * A verifier key reads `<name>+<8 hex id>+<base64(0x01 ‖ public key)>`; a private key in Go's form
 * `PRIVATE+KEY+<name>+<8 hex id>+<base64(0x01 ‖ 32-byte seed)>`.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

const ED25519 = 0x01;
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_PREFIX = '\u2014 ';

export type NoteSigner = { name: string; keyId: number; privateKey: KeyObject; publicKey: Buffer };
export type NoteVerifier = { name: string; keyId: number; publicKey: Buffer };

/** A key name: non-empty, no `+`, no whitespace or control character (signed-note §"Signatures"). */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[+\s\p{Cc}]/u.test(name);
}

/** The key id: the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), as a uint32. */
export function computeKeyId(name: string, publicKey: Uint8Array): number {
  return createHash('sha256').update(name).update(Buffer.of(0x0a, ED25519)).update(publicKey).digest().readUInt32BE(0);
}

const hex8 = (id: number) => id.toString(16).padStart(8, '0');

function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function rawPublicKey(key: KeyObject): Buffer {
  return createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519_PREFIX.length);
}

function seedOf(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519_PREFIX.length);
}

/** A new Ed25519 signer under `name`. */
export function generateSigner(name: string): NoteSigner {
  if (!isValidKeyName(name)) throw new RangeError(`a note key name cannot be ${JSON.stringify(name)}`);
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = rawPublicKey(privateKey);
  return { name, keyId: computeKeyId(name, publicKey), privateKey, publicKey };
}

/** The signer of a 32-byte Ed25519 seed under `name`. */
export function signerFromSeed(name: string, seed: Uint8Array): NoteSigner {
  if (!isValidKeyName(name)) throw new RangeError(`a note key name cannot be ${JSON.stringify(name)}`);
  const privateKey = privateKeyFromSeed(seed);
  const publicKey = rawPublicKey(privateKey);
  return { name, keyId: computeKeyId(name, publicKey), privateKey, publicKey };
}

/** Go's `PRIVATE+KEY+<name>+<id>+<base64(0x01 ‖ seed)>`: the text to keep secret. */
export function formatPrivateKey(signer: NoteSigner): string {
  return `PRIVATE+KEY+${signer.name}+${hex8(signer.keyId)}+${Buffer.concat([Buffer.of(ED25519), seedOf(signer.privateKey)]).toString('base64')}`;
}

/** `<name>+<id>+<base64(0x01 ‖ public key)>`: the key anyone verifies with. */
export function formatVerifierKey(key: NoteVerifier): string {
  return `${key.name}+${hex8(key.keyId)}+${Buffer.concat([Buffer.of(ED25519), key.publicKey]).toString('base64')}`;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** `<name>+<id>+<key>`, where only the key (base64) may itself hold a `+`. */
function splitKey(text: string): [string, string, string] | undefined {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first < 0 || second < 0) return undefined;
  return [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
}

function parseKeyParts(name: string, idHex: string, keyB64: string, size: number): Parsed<{ key: Buffer; id: number }> {
  if (!isValidKeyName(name)) return { ok: false, reason: 'its name is empty or holds a space or a +' };
  if (!/^[0-9a-f]{8}$/.test(idHex)) return { ok: false, reason: 'its key id is not 8 lowercase hex digits' };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(keyB64)) return { ok: false, reason: 'its key is not base64' };
  const key = Buffer.from(keyB64, 'base64');
  if (key.length !== 1 + size || key.toString('base64') !== keyB64) return { ok: false, reason: `its key is not ${1 + size} bytes of base64` };
  if (key[0] !== ED25519) return { ok: false, reason: 'its key is not an Ed25519 key (algorithm byte 0x01)' };
  return { ok: true, value: { key: key.subarray(1), id: parseInt(idHex, 16) } };
}

/** Reads Go's private key text; the key id must match the name and key. */
export function parsePrivateKey(text: string): Parsed<NoteSigner> {
  const trimmed = text.trim();
  const parts = trimmed.startsWith('PRIVATE+KEY+') ? splitKey(trimmed.slice('PRIVATE+KEY+'.length)) : undefined;
  if (!parts) return { ok: false, reason: 'it is not PRIVATE+KEY+<name>+<id>+<key>' };
  const read = parseKeyParts(...parts, 32);
  if (!read.ok) return read;
  const privateKey = privateKeyFromSeed(read.value.key);
  const publicKey = rawPublicKey(privateKey);
  const keyId = computeKeyId(parts[0], publicKey);
  if (keyId !== read.value.id) return { ok: false, reason: 'its key id does not match its name and key' };
  return { ok: true, value: { name: parts[0], keyId, privateKey, publicKey } };
}

/** Reads a verifier key; the key id must match the name and key. */
export function parseVerifierKey(text: string): Parsed<NoteVerifier> {
  const parts = splitKey(text.trim());
  if (!parts) return { ok: false, reason: 'it is not <name>+<id>+<key>' };
  const read = parseKeyParts(...parts, 32);
  if (!read.ok) return read;
  if (computeKeyId(parts[0], read.value.key) !== read.value.id) return { ok: false, reason: 'its key id does not match its name and key' };
  return { ok: true, value: { name: parts[0], keyId: read.value.id, publicKey: read.value.key } };
}

/** The signed note: `text` (which must end in a newline), a blank line, one signature line. */
export function signNote(text: string, signer: NoteSigner): string {
  if (!text.endsWith('\n')) throw new RangeError('a note text ends in a newline');
  const id = Buffer.alloc(4);
  id.writeUInt32BE(signer.keyId);
  const signature = sign(null, Buffer.from(text, 'utf8'), signer.privateKey);
  return `${text}\n${SIGNATURE_PREFIX}${signer.name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
}

/**
 * Opens a signed note: its text when a signature line by `verifier` verifies (other signers' lines,
 * such as witnesses' cosignatures, are ignored); a reason otherwise.
 */
export function openNote(note: string, verifier: NoteVerifier): Parsed<{ text: string; signatures: number }> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return { ok: false, reason: 'it is not a signed note (no blank line before the signatures)' };
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  let signatures = 0;
  for (const line of lines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/u.exec(line);
    if (!m) return { ok: false, reason: `a signature line is malformed: ${JSON.stringify(line.slice(0, 80))}` };
    if (m[1] !== verifier.name) continue;
    const bytes = Buffer.from(m[2]!, 'base64');
    if (bytes.length !== 4 + 64 || bytes.readUInt32BE(0) !== verifier.keyId) continue;
    const publicKey = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, verifier.publicKey]), format: 'der', type: 'spki' });
    if (!verify(null, Buffer.from(text, 'utf8'), publicKey, bytes.subarray(4))) return { ok: false, reason: `the signature by ${verifier.name} does not verify` };
    signatures += 1;
  }
  if (signatures === 0) return { ok: false, reason: `it carries no signature by ${verifier.name}+${hex8(verifier.keyId)}` };
  return { ok: true, value: { text, signatures } };
}
