/**
 * Decides whether one candidate review contains the needle, reading the review only when the
 * trigram spans (text-index.ts) cannot decide.
 *
 * Reasoning, in span coordinates (text offsets, then title offsets from text length + 1):
 * - If the needle starts at s, its trigram at needle offset j occurs at s + j.
 * - A trigram seen at most twice in the review ("known") occurs exactly at its first and last offsets,
 *   so s + j is one of those two: the first known trigram leaves at most two starts, and every other
 *   known trigram must agree with a start for it to survive. No survivor: no match, proven.
 * - A survivor whose agreeing known trigrams cover every unit of the needle is a match, proven,
 *   provided the trigrams are unfolded (printable ASCII): the covered units then equal the needle's.
 *   Otherwise one `startsWith` at the survivor decides.
 * - With no known trigram (each seen three times or more), the first offsets still bound where the
 *   needle can start in the text, and the search runs from there.
 */
import type { TextIndex } from './text-index.ts';
import { FAR, MANY, SPAN_BITS } from './text-index.ts';

export type NeedleCheck = {
  needle: string;
  /** Spans prove matches only when the needle's trigrams are not folded. */
  unfolded: boolean;
  /** Needle offsets of the trigrams whose spans the walk passes, ascending. */
  offsets: Int32Array;
};

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

function isKnown(span: number): boolean {
  return (span & MANY) === 0 && (span & FAR) !== FAR && ((span >>> SPAN_BITS) & FAR) !== FAR;
}

/** Search bounded by first offsets: used when no trigram is known. */
function searchFromBound(index: TextIndex, pos: number, check: NeedleCheck, spans: Uint32Array): boolean {
  const textLength = index.textLengths[pos]!;
  let from = 0;
  for (let k = 0; k < check.offsets.length; k++) {
    const first = spans[k]! & FAR;
    if (first === FAR) continue;
    if (first > textLength) {
      from = -1; // a trigram of the needle is not in the text, so neither is the needle
      break;
    }
    if (first - check.offsets[k]! > from) from = first - check.offsets[k]!;
  }
  return containsNeedle(index, pos, check.needle, from);
}

/** Whether the known trigrams (in ascending needle offset) cover every unit of the needle. */
function coversNeedle(check: NeedleCheck, spans: Uint32Array): boolean {
  let reach = -1; // last needle unit covered so far
  for (let k = 0; k < check.offsets.length; k++) {
    if (!isKnown(spans[k]!)) continue;
    const offset = check.offsets[k]!;
    if (offset > reach + 1) return false;
    if (offset + 2 > reach) reach = offset + 2;
  }
  return reach >= check.needle.length - 1;
}

/** `spans[k]` is this candidate's span of the trigram at `check.offsets[k]`. */
export function checkNeedle(index: TextIndex, pos: number, check: NeedleCheck, spans: Uint32Array): boolean {
  const count = check.offsets.length;
  let startA = -1;
  let startB = -1;
  let anchored = false;
  for (let k = 0; k < count; k++) {
    const span = spans[k]!;
    if (!isKnown(span)) continue;
    const first = span & FAR;
    const last = (span >>> SPAN_BITS) & FAR;
    const offset = check.offsets[k]!;
    if (!anchored) {
      anchored = true;
      startA = first - offset;
      startB = last === first ? -1 : last - offset;
    } else {
      if (startA >= 0 && startA + offset !== first && startA + offset !== last) startA = -1;
      if (startB >= 0 && startB + offset !== first && startB + offset !== last) startB = -1;
    }
    if (startA < 0 && startB < 0) return false;
  }
  if (!anchored) return searchFromBound(index, pos, check, spans);

  const proven = check.unfolded && coversNeedle(check, spans);
  return acceptsStart(index, pos, check, spans, startA, proven) || acceptsStart(index, pos, check, spans, startB, proven);
}

function acceptsStart(index: TextIndex, pos: number, check: NeedleCheck, spans: Uint32Array, start: number, proven: boolean) {
  if (start < 0 || !fitsSpans(check, spans, start)) return false;
  return proven || startsAt(index, pos, check.needle, start);
}

/** Trigrams seen three times or more still occur between their first and last offsets. */
function fitsSpans(check: NeedleCheck, spans: Uint32Array, start: number): boolean {
  for (let k = 0; k < check.offsets.length; k++) {
    const span = spans[k]!;
    if ((span & MANY) === 0) continue;
    const first = span & FAR;
    const last = (span >>> SPAN_BITS) & FAR;
    const at = start + check.offsets[k]!;
    if (at < first || (last !== FAR && at > last)) return false;
  }
  return true;
}
