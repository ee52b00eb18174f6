/**
 * The inner loop of the search: walks the candidates of one driver in ascending position (= result)
 * order and reports each one that passes every check. Checks, cheapest first: the rating array, the
 * other lists (galloping cursors), the character set of a short needle, and last the needle
 * (needle-check.ts), from the spans the trigram lists hold at the cursors. The walk ends early when
 * any probed list runs out.
 */
import { checkNeedle, containsNeedle, createNeedleCheck } from './needle-check.ts';
import { lowerBound, seek } from './posting-lists.ts';
import type { ReviewIndex } from './review-index.ts';
import { hasCharBits } from './text-index.ts';

/** A list to intersect; a trigram list also carries its spans and its offset in the needle. */
export type Probe = { positions: Int32Array; spans: Uint32Array | null; needleOffset: number };

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
  /** The needle to check, or null when the lists decide. */
  needle: string | null;
  /** Whether the needle's trigrams are printable ASCII, so their spans can prove a match. */
  unfolded: boolean;
};

export function listProbe(positions: Int32Array): Probe {
  return { positions, spans: null, needleOffset: 0 };
}

/** The part of a probe whose positions lie in [lo, hi). */
export function cutProbe(probe: Probe, lo: number, hi: number): Probe {
  const start = lowerBound(probe.positions, lo);
  const end = lowerBound(probe.positions, hi, start);
  if (start === 0 && end === probe.positions.length) return probe;
  return {
    positions: probe.positions.subarray(start, end),
    spans: probe.spans === null ? null : probe.spans.subarray(start, end),
    needleOffset: probe.needleOffset,
  };
}

/** Calls `onMatch` with each matching position, in ascending order. */
export function walkCandidates(index: ReviewIndex, walk: Walk, onMatch: (pos: number) => void): void {
  const { driver, lo, probes, rating, minRating, charBits, needle } = walk;
  const driverPositions = driver === null ? null : driver.positions;
  const candidates = driverPositions === null ? walk.hi - lo : driverPositions.length;
  const ratings = index.ratings;
  const positionsOf = probes.map((probe) => probe.positions);
  const cursors = new Int32Array(probes.length);

  // The trigram lists in needle order, and where each one's index lives: the driver's (-1) or a cursor.
  const trigrams = [driver, ...probes]
    .filter((probe): probe is Probe => probe !== null && probe.spans !== null)
    .sort((a, b) => a.needleOffset - b.needleOffset);
  const spansOf = trigrams.map((probe) => probe.spans!);
  const slots = Int32Array.from(trigrams, (probe) => (probe === driver ? -1 : probes.indexOf(probe)));
  const offsets = Int32Array.from(trigrams, (probe) => probe.needleOffset);
  const check = needle === null ? null : createNeedleCheck(needle, walk.unfolded, offsets);
  const spans = new Uint32Array(trigrams.length);

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
    if (check !== null) {
      if (spans.length === 0) {
        if (!containsNeedle(index.text, pos, check.needle)) continue;
      } else {
        for (let t = 0; t < spans.length; t++) spans[t] = spansOf[t]![slots[t] === -1 ? i : cursors[slots[t]!]!]!;
        if (!checkNeedle(index.text, pos, check, spans)) continue;
      }
    }
    onMatch(pos);
  }
}
