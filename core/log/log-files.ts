/**
 * A review log as its static files (C2SP tlog-tiles), and back. Paths are relative to the log's root,
 * `{PUBLIC_URL}/log/`: `checkpoint`, `vkey`, `tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`.
 */
import { openCheckpoint, signCheckpoint, type Checkpoint } from './checkpoint.ts';
import { decodeLogEntry, type LogEntry } from './entry.ts';
import { MerkleTree } from './merkle.ts';
import { formatVerifierKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from './note.ts';
import { decodeEntryBundle, encodeEntryBundle, entryTilesOf, hashTilesOf, readHashTile, tilePath, TILE_WIDTH } from './tiles.ts';
import { checkClaimedSize, maxLogFileBytes } from './log-bounds.ts';

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

/** Entry bundles read at once when a log is opened. */
const READ_CONCURRENCY = 8;

/**
 * Reads one file of a log by its relative path; undefined when there is none. `maxBytes` is the most that
 * file may hold (log-bounds.ts): a reader stops there and fails rather than read on.
 */
export type LogFileReader = (path: string, maxBytes: number) => Promise<Uint8Array | undefined>;

export type OpenedLog = { checkpoint: Checkpoint; verifier: NoteVerifier; entries: Buffer[]; decoded: LogEntry[]; tree: MerkleTree };
export type OpenLogResult = { ok: true; value: OpenedLog } | { ok: false; reason: string } | { ok: 'absent' };

/**
 * Opens a published log through `read`: its vkey (or `verifier` when given, which then must match), its
 * checkpoint's signature and origin, every entry bundle, and the tree they make, which must hash to the
 * checkpoint's root. `{ ok: 'absent' }` when there is no checkpoint at all. Every file is held to
 * log-bounds.ts, and the bundles are read a few at a time and each checked as it arrives, so what a
 * log costs follows what it really holds, not what its checkpoint claims.
 */
export async function openLogFiles(read: LogFileReader, origin: string, verifier?: NoteVerifier): Promise<OpenLogResult> {
  const readCapped = async (p: string) => {
    const bytes = await read(p, maxLogFileBytes(p));
    if (bytes !== undefined && bytes.length > maxLogFileBytes(p)) throw new LogFileTooLarge(`its file ${p} holds ${bytes.length} bytes, more than such a file can (${maxLogFileBytes(p)})`);
    return bytes;
  };
  try {
    return await openCapped(readCapped, origin, verifier);
  } catch (error) {
    if (error instanceof LogFileTooLarge) return { ok: false, reason: error.message };
    throw error;
  }
}

class LogFileTooLarge extends Error {}

async function openCapped(read: (p: string) => Promise<Uint8Array | undefined>, origin: string, verifier?: NoteVerifier): Promise<OpenLogResult> {
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
  const tooLarge = checkClaimedSize(checkpoint.size);
  if (tooLarge) return { ok: false, reason: tooLarge };
  const tiles = entryTilesOf(checkpoint.size);
  const entries: Buffer[] = [];
  const decoded: LogEntry[] = [];
  // A few bundles read at once (a remote log is read over HTTP), checked in log order as they come; the
  // first that is wrong ends the reading.
  for (let start = 0; start < tiles.length; start += READ_CONCURRENCY) {
    const batch = tiles.slice(start, start + READ_CONCURRENCY);
    const bundles = await Promise.all(batch.map((t) => read(tilePath(t))));
    for (const [i, tile] of batch.entries()) {
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
      for (const bytes of got) {
        const entry = decodeLogEntry(bytes);
        if (!entry.ok) return { ok: false, reason: `its entry ${entries.length}: ${entry.reason}` };
        entries.push(bytes);
        decoded.push(entry.value);
      }
    }
  }
  const tree = MerkleTree.fromEntries(entries);
  if (!tree.rootHash().equals(checkpoint.rootHash)) return { ok: false, reason: 'its entries do not hash to its checkpoint\'s root' };
  return { ok: true, value: { checkpoint, verifier: key, entries, decoded, tree } };
}
