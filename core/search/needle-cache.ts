/**
 * Exact answers for popular `query` needles. Checking tens of thousands of candidates costs a few
 * milliseconds (needle-check.ts, one each), and the same few words ("on time", "price") come back
 * again and again; so the second search for a needle with many candidates records every position
 * that truly contains it, and later searches intersect that list like any other, with no check at all.
 * Only the second: recording costs a walk over every review, which a needle searched once (the long
 * tail) should not pay. A bounded set of recently missed needles tells the second time from the first.
 *
 * Bounded: at most `maxPositions` positions in all (4 bytes each, 32 MB by default) and `maxEntries`
 * needles; the least recently used needle goes first. Entries never go stale: an index is built once
 * per data set and the cache lives and dies with it.
 */

export type NeedleCacheOptions = {
  /** Needles with fewer candidates than this are cheap to verify and are not cached. */
  minCandidates?: number;
  maxPositions?: number;
  maxEntries?: number;
  /** How many once-missed needles to remember; 0 caches a needle at its first miss. */
  maxMissed?: number;
};

export type NeedleCache = {
  readonly minCandidates: number;
  get(needle: string): Int32Array | undefined;
  set(needle: string, positions: Int32Array): void;
  /** Records a miss; true when the needle was missed before, i.e. is worth caching now. */
  noteMiss(needle: string): boolean;
  /** Needles held. */
  readonly size: number;
  /** Positions held in all (4 bytes each). */
  readonly positions: number;
};

export function createNeedleCache(options: NeedleCacheOptions = {}): NeedleCache {
  const { minCandidates = 2_000, maxPositions = 8_000_000, maxEntries = 512, maxMissed = 4_096 } = options;
  const missed = new Set<string>();
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Int32Array>();
  let positions = 0;
  return {
    minCandidates,
    get(needle) {
      const found = entries.get(needle);
      if (found !== undefined) {
        entries.delete(needle);
        entries.set(needle, found);
      }
      return found;
    },
    set(needle, list) {
      if (list.length > maxPositions) return;
      const previous = entries.get(needle);
      if (previous !== undefined) {
        entries.delete(needle);
        positions -= previous.length;
      }
      while (entries.size > 0 && (positions + list.length > maxPositions || entries.size >= maxEntries)) {
        const [oldest, old] = entries.entries().next().value!;
        entries.delete(oldest);
        positions -= old.length;
      }
      entries.set(needle, list);
      positions += list.length;
    },
    noteMiss(needle) {
      if (maxMissed === 0 || missed.delete(needle)) return true;
      // A Set iterates in insertion order too: forget the oldest miss first.
      if (missed.size >= maxMissed) missed.delete(missed.values().next().value!);
      missed.add(needle);
      return false;
    },
    get size() {
      return entries.size;
    },
    get positions() {
      return positions;
    },
  };
}
