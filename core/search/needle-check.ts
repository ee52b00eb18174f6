/**
 * Decides whether one candidate review contains the needle from the occurrence offsets of its trigrams
 * (text-index.ts), reading the review only when they cannot decide.
 *
 * Reasoning, in span coordinates (text offsets, then title offsets from text length + 1):
 * - If the needle starts at s, its trigram at needle offset j occurs at s + j. So the starts are among
 *   the occurrences of the rarest trigram, minus its offset; every other trigram whose occurrences are
 *   all listed keeps only the starts it agrees with. No start left: no match, proven.
 * - A start confirmed by trigrams that cover every unit of the needle is a match, proven, when the
 *   trigrams are unfolded (printable ASCII): the covered units then equal the needle's. Otherwise
 *   one `startsWith` at the start decides.
 * - When no trigram has its occurrences listed (offsets past FAR), the first offsets still bound where
 *   the needle can start in the text, and a search runs from there.
 */
import type { TextIndex } from './text-index.ts';
import { FAR, MANY, OVERFLOW_MASK, SPAN_BITS } from './text-index.ts';

export type NeedleCheck = {
  needle: string;
  /** Offsets prove matches only when the needle's trigrams are not folded. */
  unfolded: boolean;
  /** Needle offsets of the trigrams whose spans the walk passes, ascending. */
  offsets: Int32Array;
  /** Scratch: candidate starts. */
  starts: Int32Array;
};

export function createNeedleCheck(needle: string, unfolded: boolean, offsets: Int32Array): NeedleCheck {
  return { needle, unfolded, offsets, starts: new Int32Array(64) };
}

/** The needle inside the text (from `textFrom`; −1: not in the text) or inside the title. */
export function containsNeedle(index: TextIndex, pos: number, needle: string, textFrom = 0): boolean {
  if (textFrom >= 0 && index.lowerTexts[pos]!.indexOf(needle, textFrom) !== -1) return true;
  const title = index.lowerTitles[pos];
  return title !== null && title !== undefined && title.includes(needle);
}

/** Whether the needle starts exactly at span offset `start`. */
function startsAt(index: TextIndex, pos: number, needle: string, start: number): boolean {
  const textLength = index.textLengths[pos]!;
  if (start + needle.length <= textLength) return index.lowerTexts[pos]!.startsWith(needle, start);
  if (start <= textLength) return false; // would straddle the end of the text and the title
  const title = index.lowerTitles[pos];
  return title !== null && title !== undefined && title.startsWith(needle, start - textLength - 1);
}

/** How many occurrences a span lists; 0 when they are not all listed. */
function countListed(index: TextIndex, span: number): number {
  if ((span & MANY) !== 0) {
    const at = span & OVERFLOW_MASK;
    const count = index.overflow[at]!;
    return index.overflow[at + count] === FAR ? 0 : count; // offsets ascend: only the last can be FAR
  }
  if (((span >>> SPAN_BITS) & FAR) === FAR) return 0;
  return (span & FAR) === ((span >>> SPAN_BITS) & FAR) ? 1 : 2;
}

/** The k-th listed occurrence of a span (k < countListed). */
function occurrence(index: TextIndex, span: number, k: number): number {
  if ((span & MANY) !== 0) return index.overflow[(span & OVERFLOW_MASK) + 1 + k]!;
  return k === 0 ? span & FAR : (span >>> SPAN_BITS) & FAR;
}

function occursAt(index: TextIndex, span: number, count: number, offset: number): boolean {
  for (let k = 0; k < count; k++) {
    const at = occurrence(index, span, k);
    if (at >= offset) return at === offset;
  }
  return false;
}

/** Search bounded by first offsets: used when no trigram has its occurrences listed. */
function searchFromBound(index: TextIndex, pos: number, check: NeedleCheck, spans: Uint32Array): boolean {
  const textLength = index.textLengths[pos]!;
  let from = 0;
  for (let k = 0; k < check.offsets.length; k++) {
    const span = spans[k]!;
    const first = (span & MANY) !== 0 ? index.overflow[(span & OVERFLOW_MASK) + 1]! : span & FAR;
    if (first === FAR) continue;
    if (first > textLength) {
      from = -1; // a trigram of the needle is not in the text, so neither is the needle
      break;
    }
    if (first - check.offsets[k]! > from) from = first - check.offsets[k]!;
  }
  return containsNeedle(index, pos, check.needle, from);
}

/** `spans[k]` is this candidate's span of the trigram at `check.offsets[k]`. */
export function checkNeedle(index: TextIndex, pos: number, check: NeedleCheck, spans: Uint32Array): boolean {
  const trigrams = check.offsets.length;
  // The anchor: the listed trigram with the fewest occurrences.
  let anchor = -1;
  let anchorCount = 0;
  let listedCover = -1; // last needle unit covered by listed trigrams, while they leave no gap
  for (let k = 0; k < trigrams; k++) {
    const count = countListed(index, spans[k]!);
    if (count === 0) continue;
    if (anchor < 0 || count < anchorCount) {
      anchor = k;
      anchorCount = count;
    }
    const offset = check.offsets[k]!;
    if (offset <= listedCover + 1 && offset + 2 > listedCover) listedCover = offset + 2;
  }
  if (anchor < 0) return searchFromBound(index, pos, check, spans);

  let starts = check.starts;
  if (starts.length < anchorCount) starts = check.starts = new Int32Array(anchorCount * 2);
  let kept = 0;
  for (let k = 0; k < anchorCount; k++) {
    const start = occurrence(index, spans[anchor]!, k) - check.offsets[anchor]!;
    if (start >= 0) starts[kept++] = start;
  }
  for (let k = 0; k < trigrams && kept > 0; k++) {
    if (k === anchor) continue;
    const span = spans[k]!;
    const count = countListed(index, span);
    if (count === 0) continue;
    let survivors = 0;
    for (let s = 0; s < kept; s++) {
      if (occursAt(index, span, count, starts[s]! + check.offsets[k]!)) starts[survivors++] = starts[s]!;
    }
    kept = survivors;
  }
  if (kept === 0) return false;
  if (check.unfolded && listedCover >= check.needle.length - 1) return true;
  for (let s = 0; s < kept; s++) if (startsAt(index, pos, check.needle, starts[s]!)) return true;
  return false;
}
