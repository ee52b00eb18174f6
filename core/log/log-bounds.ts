/**
 * What a reader of a review log accepts before it reads a byte more (issue 40 item 2, docs/log.md): a
 * log's server, or anyone between, decides what it sends, so `npm run verify`, the build's reader of the
 * published log and openLogFiles all hold every file to these bounds.
 *
 * - A checkpoint may claim at most MAX_LOG_SIZE entries: 2^20, five times the log of 100,000 reviews after
 *   100,000 changes (195,122 entries). Its tree then holds at most 2^21 hashes (about 300 MB in memory).
 * - A checkpoint is at most 64 KiB (a note with a few hundred cosignatures); a hash tile 256 hashes of
 *   32 bytes (8 KiB); an entry bundle 256 entries of at most 65,535 bytes, each with its 2-byte length.
 */
import { parseTilePath, TILE_WIDTH, MAX_ENTRY_BYTES } from './tiles.ts';
import { HASH_SIZE } from './merkle.ts';

export const MAX_LOG_SIZE = 2 ** 20;
export const MAX_CHECKPOINT_BYTES = 64 * 1024;
export const MAX_HASH_TILE_BYTES = TILE_WIDTH * HASH_SIZE;
export const MAX_ENTRY_BUNDLE_BYTES = TILE_WIDTH * (2 + MAX_ENTRY_BYTES);
/** A verifier key is one short line. */
export const MAX_VKEY_BYTES = 1024;

/** The most bytes the log file at `path` (relative to the log's root) may hold. */
export function maxLogFileBytes(path: string): number {
  const tile = parseTilePath(path);
  if (tile === undefined) return path === 'vkey' ? MAX_VKEY_BYTES : MAX_CHECKPOINT_BYTES;
  return tile.width * (tile.level === 'entries' ? 2 + MAX_ENTRY_BYTES : HASH_SIZE);
}

/** A reason when a checkpoint claims more entries than a reader holds. */
export function checkClaimedSize(size: number): string | undefined {
  if (size <= MAX_LOG_SIZE) return undefined;
  return `the checkpoint claims ${size} entries, more than the ${MAX_LOG_SIZE} a reader accepts (docs/log.md)`;
}
