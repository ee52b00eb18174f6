/**
 * The log as `npm run verify` reads it (docs/verification.md steps 1–2): the checkpoint opened with the
 * key, every entry bundle hashed into the tree and each entry decoded with the log's own schema
 * (core/log/entry.ts), the root compared with the signed one, and every hash tile with the one the
 * entries make.
 *
 * What it costs follows what the server really sends: the checkpoint's claimed size is capped
 * (core/log/log-bounds.ts), bundles are read eight at a time and hashed as they come (their bytes are not
 * kept), the first bundle that is missing or cut short ends the reading, and so do too many entries that
 * are not entries.
 */
import { openCheckpoint, type Checkpoint } from '../../core/log/checkpoint.ts';
import { decodeLogEntry, type LogEntry } from '../../core/log/entry.ts';
import { checkClaimedSize, maxLogFileBytes } from '../../core/log/log-bounds.ts';
import { MerkleTree } from '../../core/log/merkle.ts';
import type { NoteVerifier } from '../../core/log/note.ts';
import { decodeEntryBundle, entryTilesOf, hashTilesOf, readHashTile, tilePath, type Tile } from '../../core/log/tiles.ts';
import { Unreadable, type SiteReader } from './site-reader.ts';

/** Files read at once. */
const CONCURRENCY = 8;
/** Entries that are not entries before the reading stops: past this the log is plainly not one. */
const MAX_BAD_ENTRIES = 20;

/** `entries[i]` undefined: entry i is not an entry of the log's schema (a problem names it). */
export type ReadLog = { note: string; checkpoint: Checkpoint; tree: MerkleTree; entries: (LogEntry | undefined)[]; complete: boolean };

async function readInBatches(site: SiteReader, logUrl: string, tiles: readonly Tile[], each: (tile: Tile, bytes: Buffer) => boolean): Promise<void> {
  for (let i = 0; i < tiles.length; i += CONCURRENCY) {
    const batch = tiles.slice(i, i + CONCURRENCY);
    const files = await Promise.all(batch.map((t) => site.require(`${logUrl}${tilePath(t)}`, maxLogFileBytes(tilePath(t)))));
    for (const [j, tile] of batch.entries()) if (!each(tile, files[j]!)) return;
  }
}

export async function readLog(site: SiteReader, logUrl: string, verifier: NoteVerifier, problems: string[]): Promise<ReadLog> {
  const note = (await site.require(`${logUrl}checkpoint`, maxLogFileBytes('checkpoint'))).toString('utf8');
  const opened = openCheckpoint(note, verifier, verifier.name);
  if (!opened.ok) throw new Unreadable(`the checkpoint ${logUrl}checkpoint: ${opened.reason}`);
  const checkpoint = opened.value;
  const tooLarge = checkClaimedSize(checkpoint.size);
  if (tooLarge) throw new Unreadable(tooLarge);

  const tree = new MerkleTree();
  const entries: (LogEntry | undefined)[] = [];
  let bad = 0;
  let complete = true;
  await readInBatches(site, logUrl, entryTilesOf(checkpoint.size), (tile, bundle) => {
    let got: Buffer[];
    try {
      got = decodeEntryBundle(bundle);
    } catch (error) {
      problems.push(`entry bundle ${tilePath(tile)}: ${(error as Error).message}`);
      return (complete = false);
    }
    if (got.length !== tile.width) {
      problems.push(`entry bundle ${tilePath(tile)} holds ${got.length} entries, not ${tile.width}: a missing entry`);
      return (complete = false);
    }
    for (const bytes of got) {
      tree.append(bytes);
      const entry = decodeLogEntry(bytes);
      if (!entry.ok) {
        problems.push(`entry ${entries.length} is not an entry of this log: ${entry.reason}`);
        bad += 1;
      }
      entries.push(entry.ok ? entry.value : undefined);
    }
    if (bad < MAX_BAD_ENTRIES) return true;
    problems.push(`more than ${MAX_BAD_ENTRIES} entries are not entries of this log: reading stopped`);
    return (complete = false);
  });
  if (complete && !tree.rootHash().equals(checkpoint.rootHash)) {
    problems.push(`the ${entries.length} entries do not hash to the signed checkpoint's root: an entry is missing or changed`);
    complete = false;
  }
  if (complete) {
    await readInBatches(site, logUrl, hashTilesOf(checkpoint.size), (tile, bytes) => {
      if (!bytes.equals(readHashTile(tree, tile))) problems.push(`hash tile ${tilePath(tile)} is not the one the entries make`);
      return true;
    });
  }
  return { note, checkpoint, tree, entries, complete };
}
