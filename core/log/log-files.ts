/**
 * A review log as its static files (C2SP tlog-tiles), and back. Paths are relative to the log's root,
 * `{PUBLIC_URL}/log/`: `checkpoint`, `vkey`, `tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`.
 */
import { openCheckpoint, signCheckpoint, type Checkpoint } from './checkpoint.ts';
import { decodeLogEntry, type LogEntry } from './entry.ts';
import { MerkleTree } from './merkle.ts';
import { formatVerifierKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from './note.ts';
import { decodeEntryBundle, encodeEntryBundle, entryTilesOf, hashTilesOf, readHashTile, tilePath, TILE_WIDTH } from './tiles.ts';

export const CHECKPOINT_PATH = 'checkpoint';
export const VKEY_PATH = 'vkey';

/** The log's origin (and key name): PUBLIC_URL without its scheme and trailing slash, then `/log`. */
export function logOriginOf(publicUrl: string): string {
  return `${publicUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '')}/log`;
}

export type LogFiles = { files: Map<string, Buffer>; checkpoint: Checkpoint; tree: MerkleTree };

/**
 * Every file of the log holding `entries` (already encoded, in log order), its checkpoint signed by
 * `signer`, whose name must be `origin`. `tree`, when given, is the tree of a prefix of `entries` (the
 * log as it was opened), which is extended rather than hashed again.
 */
export function buildLogFiles(input: { origin: string; entries: readonly Uint8Array[]; signer: NoteSigner; tree?: MerkleTree }): LogFiles {
  const { origin, entries, signer } = input;
  if (signer.name !== origin) throw new RangeError(`the log's key is named ${JSON.stringify(signer.name)}, not its origin ${JSON.stringify(origin)}`);
  const tree = input.tree ?? new MerkleTree();
  if (tree.size > entries.length) throw new RangeError(`a tree of ${tree.size} leaves is not a prefix of ${entries.length} entries`);
  for (let i = tree.size; i < entries.length; i++) tree.append(entries[i]!);
  const files = new Map<string, Buffer>();
  for (const tile of hashTilesOf(tree.size)) files.set(tilePath(tile), readHashTile(tree, tile));
  for (const tile of entryTilesOf(tree.size)) {
    const start = tile.index * TILE_WIDTH;
    files.set(tilePath(tile), encodeEntryBundle(entries.slice(start, start + tile.width)));
  }
  const checkpoint = { origin, size: tree.size, rootHash: tree.rootHash() };
  files.set(CHECKPOINT_PATH, Buffer.from(signCheckpoint(checkpoint, signer), 'utf8'));
  files.set(VKEY_PATH, Buffer.from(`${formatVerifierKey(signer)}\n`, 'utf8'));
  return { files, checkpoint, tree };
}

/** Reads one file of a log by its relative path; undefined when there is none. */
/** Entry bundles read at once when a log is opened. */
const READ_CONCURRENCY = 8;

export type LogFileReader = (path: string) => Promise<Uint8Array | undefined>;

export type OpenedLog = { checkpoint: Checkpoint; verifier: NoteVerifier; entries: Buffer[]; decoded: LogEntry[]; tree: MerkleTree };
export type OpenLogResult = { ok: true; value: OpenedLog } | { ok: false; reason: string } | { ok: 'absent' };

/**
 * Opens a published log through `read`: its vkey (or `verifier` when given, which then must match), its
 * checkpoint's signature and origin, every entry bundle, and the tree they make, which must hash to the
 * checkpoint's root. `{ ok: 'absent' }` when there is no checkpoint at all.
 */
export async function openLogFiles(read: LogFileReader, origin: string, verifier?: NoteVerifier): Promise<OpenLogResult> {
  const note = await read(CHECKPOINT_PATH);
  if (note === undefined) return { ok: 'absent' };
  let key = verifier;
  if (!key) {
    const vkey = await read(VKEY_PATH);
    if (vkey === undefined) return { ok: false, reason: 'the log has a checkpoint but no vkey' };
    const parsed = parseVerifierKey(Buffer.from(vkey).toString('utf8'));
    if (!parsed.ok) return { ok: false, reason: `its vkey is not a verifier key: ${parsed.reason}` };
    key = parsed.value;
  }
  const opened = openCheckpoint(Buffer.from(note).toString('utf8'), key, origin);
  if (!opened.ok) return { ok: false, reason: `its checkpoint: ${opened.reason}` };
  const checkpoint = opened.value;
  // Read a few bundles at a time (a remote log is read over HTTP), checked in log order.
  const tiles = entryTilesOf(checkpoint.size);
  const bundles: (Uint8Array | undefined)[] = new Array(tiles.length);
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < tiles.length; i = next++) bundles[i] = await read(tilePath(tiles[i]!));
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, tiles.length) }, reader));
  const entries: Buffer[] = [];
  for (const [i, tile] of tiles.entries()) {
    const p = tilePath(tile);
    const bundle = bundles[i];
    if (bundle === undefined) return { ok: false, reason: `its entry bundle ${p} is missing` };
    let got: Buffer[];
    try {
      got = decodeEntryBundle(bundle);
    } catch (error) {
      return { ok: false, reason: `its entry bundle ${p}: ${(error as Error).message}` };
    }
    if (got.length !== tile.width) return { ok: false, reason: `its entry bundle ${p} holds ${got.length} entries, not ${tile.width}` };
    for (const entry of got) entries.push(entry);
  }
  const tree = MerkleTree.fromEntries(entries);
  if (!tree.rootHash().equals(checkpoint.rootHash)) return { ok: false, reason: 'its entries do not hash to its checkpoint\'s root' };
  const decoded: LogEntry[] = new Array(entries.length);
  for (const [i, bytes] of entries.entries()) {
    const entry = decodeLogEntry(bytes);
    if (!entry.ok) return { ok: false, reason: `its entry ${i}: ${entry.reason}` };
    decoded[i] = entry.value;
  }
  return { ok: true, value: { checkpoint, verifier: key, entries, decoded, tree } };
}
