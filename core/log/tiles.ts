/**
 * C2SP tlog-tiles: the log's hashes and entries cut into tiles of height 8 (256 wide).
 *
 * A hash tile at level L, index N holds the 32-byte hashes of tree level 8·L at indexes N·256 … N·256+W−1;
 * a tile with fewer than 256 hashes is partial and its path ends in `.p/<W>`. An entry bundle
 * (`tile/entries/<N>`) holds the entries of leaves N·256 …, each prefixed by its length as a big-endian
 * uint16. N is written in groups of three digits, every group but the last prefixed by `x`
 * (1234067 → `x001/x234/067`). The tiles of a tree are those Go's `tlog.NewTiles(8, 0, size)` lists.
 */
import { HASH_SIZE, type MerkleTree } from './merkle.ts';

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 1 << TILE_HEIGHT;
/** An entry longer than this cannot be written in a bundle (its length prefix is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

export type Tile = { level: number | 'entries'; index: number; width: number };

/** `x001/x234/067` for 1234067; `000` for 0. */
export function encodeTileIndex(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad tile index ${n}`);
  let s = String(n % 1000).padStart(3, '0');
  for (let rest = Math.floor(n / 1000); rest > 0; rest = Math.floor(rest / 1000)) s = `x${String(rest % 1000).padStart(3, '0')}/${s}`;
  return s;
}

/** The tile's path under the log's root, e.g. `tile/0/x001/234.p/5`, `tile/entries/000`. */
export function tilePath(tile: Tile): string {
  const partial = tile.width < TILE_WIDTH ? `.p/${tile.width}` : '';
  return `tile/${tile.level}/${encodeTileIndex(tile.index)}${partial}`;
}

/** Parses a tile path back; undefined when it is not one tlog-tiles allows. */
export function parseTilePath(p: string): Tile | undefined {
  const m = /^tile\/(entries|[0-9]|[1-5][0-9]|6[0-3])\/((?:x\d{3}\/)*\d{3})(?:\.p\/(\d{1,3}))?$/.exec(p);
  if (!m) return undefined;
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (m[3] !== undefined && (width < 1 || width >= TILE_WIDTH || m[3] !== String(width))) return undefined;
  const index = Number(m[2]!.replaceAll('x', '').replaceAll('/', ''));
  const level = m[1] === 'entries' ? 'entries' : Number(m[1]);
  return { level, index, width };
}

/** The hash tiles of a tree of `size` leaves (Go's tlog.NewTiles(8, 0, size)), lowest level first. */
export function hashTilesOf(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; Math.floor(size / 2 ** (TILE_HEIGHT * level)) > 0; level++) {
    const hashes = Math.floor(size / 2 ** (TILE_HEIGHT * level));
    const full = Math.floor(hashes / TILE_WIDTH);
    for (let index = 0; index < full; index++) tiles.push({ level, index, width: TILE_WIDTH });
    if (hashes % TILE_WIDTH > 0) tiles.push({ level, index: full, width: hashes % TILE_WIDTH });
  }
  return tiles;
}

/** The entry bundles of a log of `size` entries. */
export function entryTilesOf(size: number): Tile[] {
  return hashTilesOf(size)
    .filter((t) => t.level === 0)
    .map((t) => ({ ...t, level: 'entries' as const }));
}

/** A hash tile's bytes: W hashes of tree level 8·L, concatenated. */
export function readHashTile(tree: MerkleTree, tile: Tile): Buffer {
  if (tile.level === 'entries') throw new TypeError('an entry bundle is not a hash tile');
  const row = tree.levels[TILE_HEIGHT * tile.level] ?? [];
  const start = tile.index * TILE_WIDTH;
  if (start + tile.width > row.length) throw new RangeError(`tile ${tilePath(tile)} is beyond the tree`);
  return Buffer.concat(row.slice(start, start + tile.width), tile.width * HASH_SIZE);
}

/** An entry bundle: each entry prefixed by its byte length as a big-endian uint16. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new RangeError(`a log entry of ${entry.length} bytes is over ${MAX_ENTRY_BYTES}`);
    size += 2 + entry.length;
  }
  const bundle = Buffer.allocUnsafe(size);
  let at = 0;
  for (const entry of entries) {
    at = bundle.writeUInt16BE(entry.length, at);
    bundle.set(entry, at);
    at += entry.length;
  }
  return bundle;
}

/** The entries of a bundle; throws when it is cut short. */
export function decodeEntryBundle(bundle: Uint8Array): Buffer[] {
  const bytes = Buffer.from(bundle.buffer, bundle.byteOffset, bundle.byteLength);
  const entries: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new RangeError('entry bundle ends inside a length prefix');
    const length = bytes.readUInt16BE(at);
    if (at + 2 + length > bytes.length) throw new RangeError('entry bundle ends inside an entry');
    entries.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
