/**
 * The inner loop of the search: walks the candidates of one driver in ascending position (= result)
 * order and reports each one that passes every check. Checks, cheapest first: the rating array, the
 * other lists (galloping cursors), the character set of a short needle, and last the needle itself,
 * searched in the text only from the offset the trigram lists' `firstAt` prove it cannot start before
 * (text-index.ts). The walk ends early when any probed list runs out.
 */
import { lowerBound, seek } from './posting-lists.ts';
import type { ReviewIndex } from './review-index.ts';
import { containsNeedle, FAR, hasCharBits } from './text-index.ts';

/** A list to intersect; trigram lists carry where their trigram first occurs (see text-index.ts). */
export type Probe = { positions: Int32Array; firstAt: Uint16Array | null; needleOffset: number };

export type Walk = {
  /** The candidates: the driver's positions, or every position in [lo, hi) when null. */
  driver: Probe | null;
  lo: number;
  hi: number;
  /** Lists every match must also be in. */
  probes: Probe[];
  /** Exact rating to check (0: none) and minimum rating to check (≤ 1: none). */
  rating: number;
  minRating: number;
  charBits: Uint32Array | null;
  /** Needle to verify with a string search, or null when the lists decide. */
  needle: string | null;
};

export function listProbe(positions: Int32Array): Probe {
  return { positions, firstAt: null, needleOffset: 0 };
}

/** The part of a probe whose positions lie in [lo, hi). */
export function cutProbe(probe: Probe, lo: number, hi: number): Probe {
  const start = lowerBound(probe.positions, lo);
  const end = lowerBound(probe.positions, hi, start);
  if (start === 0 && end === probe.positions.length) return probe;
  return {
    positions: probe.positions.subarray(start, end),
    firstAt: probe.firstAt === null ? null : probe.firstAt.subarray(start, end),
    needleOffset: probe.needleOffset,
  };
}

/** Calls `onMatch` with each matching position, in ascending order. */
export function walkCandidates(index: ReviewIndex, walk: Walk, onMatch: (pos: number) => void): void {
  const { driver, lo, probes, rating, minRating, charBits, needle } = walk;
  const driverPositions = driver === null ? null : driver.positions;
  const candidates = driverPositions === null ? walk.hi - lo : driverPositions.length;
  const ratings = index.ratings;
  const textLengths = index.text.textLengths;
  const positionsOf = probes.map((probe) => probe.positions);
  const cursors = new Int32Array(probes.length);

  // Trigram lists whose firstAt bounds the needle; slot -1 means the driver (its index is the loop's).
  const hints = needle === null ? [] : [driver, ...probes].filter((p): p is Probe => p !== null && p.firstAt !== null);
  const hintFirstAt = hints.map((probe) => probe.firstAt!);
  const hintOffsets = hints.map((probe) => probe.needleOffset);
  const hintSlots = hints.map((probe) => (probe === driver ? -1 : probes.indexOf(probe)));

  walk: for (let i = 0; i < candidates; i++) {
    const pos = driverPositions === null ? lo + i : driverPositions[i]!;
    if (rating !== 0 && ratings[pos] !== rating) continue;
    if (minRating > 1 && ratings[pos]! < minRating) continue;
    for (let p = 0; p < positionsOf.length; p++) {
      const list = positionsOf[p]!;
      const at = seek(list, pos, cursors[p]!);
      cursors[p] = at;
      if (at === list.length) break walk; // no later candidate can be in this list either
      if (list[at] !== pos) continue walk;
    }
    if (charBits !== null && !hasCharBits(index.text, pos, charBits)) continue;
    if (needle !== null) {
      const textLength = textLengths[pos]!;
      let from = 0;
      for (let h = 0; h < hintFirstAt.length; h++) {
        const slot = hintSlots[h]!;
        const first = hintFirstAt[h]![slot === -1 ? i : cursors[slot]!]!;
        if (first === FAR) continue;
        if (first > textLength) {
          from = -1; // the trigram is not in the text, so neither is the needle
          break;
        }
        if (first - hintOffsets[h]! > from) from = first - hintOffsets[h]!;
      }
      if (!containsNeedle(index.text, pos, needle, from)) continue;
    }
    onMatch(pos);
  }
}
