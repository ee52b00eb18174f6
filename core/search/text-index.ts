/**
 * Index for the `query` filter. A review matches when the lowercased query (String.prototype.toLowerCase)
 * is a substring of its lowercased text or of its lowercased title; each field is searched on its own,
 * so a match never spans the end of the title and the start of the text.
 *
 * Rules of the index:
 * - Every field is lowercased once at build time; a query is lowercased the same way, so the two sides
 *   always agree, whatever toLowerCase does to length or context (İ, final sigma).
 * - Code units are folded to 7 bits: printable ASCII (0x20–0x7e) keeps its code, every other unit
 *   (controls, non-ASCII, surrogate halves) shares the codes 0x00–0x1f. Folding only merges, so a list
 *   is always a superset of the true one, and exact when every unit of its key is printable ASCII.
 * - Trigram lists: for each folded trigram, the ascending positions of the reviews whose text or title
 *   contains it, as one CSR array (offsets + postings). A review containing a query of three or more
 *   units contains each of its trigrams, so intersecting their lists gives every match and a few more.
 * - Occurrences: each posting also records every offset at which its trigram occurs in the review, in
 *   one coordinate system for both fields: text offsets, then title offsets counted from text length
 *   + 1 (no trigram spans the two, so neither can a match). One or two offsets fit in the posting's
 *   32-bit span; more go to a shared overflow array the span points to. needle-check.ts decides
 *   candidates from these offsets alone, without reading the review.
 * - Character sets: 128 bits per review (the folded units of text and title) narrow one- and two-unit
 *   queries, which have no trigram.
 */
import { lowerBound } from './posting-lists.ts';

export const UNIT_BITS = 7;
export const TRIGRAM_KEYS = 1 << (3 * UNIT_BITS);
export const TRIGRAM_MASK = TRIGRAM_KEYS - 1;
/**
 * Span layout: one or two occurrences as bits 0–14 (first offset) and 15–29 (last offset, equal to the
 * first when it occurs once); or bit 30 set and bits 0–29 the index in `overflow` of
 * [count, offset, offset, …].
 */
export const SPAN_BITS = 15;
/** An offset too large to record: a trigram with such an occurrence is checked on the review itself. */
export const FAR = (1 << SPAN_BITS) - 1;
export const MANY = 1 << 30;
export const OVERFLOW_MASK = MANY - 1;
/** 32-bit words of a review's character set. */
export const CHAR_SET_WORDS = 4;

export type TextIndex = {
  lowerTexts: string[];
  /** `lowerTexts[pos].length`, kept compact so a check can place a span without reading the string. */
  textLengths: Int32Array;
  /** The title, lowered; with a translation, then its title and text (build-text-index.ts searchableTitleOf). */
  lowerTitles: (string | null)[];
  /** CHAR_SET_WORDS words per review position. */
  charSets: Uint32Array;
  /** The trigram keys that occur, ascending. */
  keys: Int32Array;
  /** `keys[i]` owns postings[offsets[i] .. offsets[i + 1]) and the same slice of spans. */
  offsets: Int32Array;
  postings: Int32Array;
  spans: Uint32Array;
  overflow: Uint16Array;
};

/** One trigram of a query: the reviews containing it, their spans, and where it sits in the needle. */
export type TrigramList = { positions: Int32Array; spans: Uint32Array; needleOffset: number };

/** How the engine narrows and checks the `query` filter. */
export type TextPlan = {
  needle: string;
  /** One list per distinct trigram of the needle, in needle order. */
  lists: TrigramList[];
  /** Character-set bits every match has (one- and two-unit queries), else null. */
  charBits: Uint32Array | null;
  /** Whether the lists or bits alone decide, with no check of any candidate. */
  exact: boolean;
  /** Whether every trigram is printable ASCII, so spans prove matches (needle-check.ts). */
  unfolded: boolean;
};

export function foldUnit(unit: number): number {
  return unit >= 0x20 && unit <= 0x7e ? unit : unit & 0x1f;
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit > 0x7e) return false;
  }
  return true;
}

/** The lists, bits and checks that find reviews containing `query`; null when `query` is empty (no filter). */
export function planTextQuery(index: TextIndex, query: string): TextPlan | null {
  const needle = query.toLowerCase();
  if (needle.length === 0) return null;
  const unfolded = isPrintableAscii(needle);

  if (needle.length < 3) {
    const charBits = new Uint32Array(CHAR_SET_WORDS);
    for (let i = 0; i < needle.length; i++) {
      const folded = foldUnit(needle.charCodeAt(i));
      charBits[folded >>> 5]! |= 1 << (folded & 31);
    }
    return { needle, lists: [], charBits, exact: needle.length === 1 && unfolded, unfolded };
  }

  const lists: TrigramList[] = [];
  const keys = new Set<number>();
  let key = 0;
  for (let i = 0; i < needle.length; i++) {
    key = ((key << UNIT_BITS) | foldUnit(needle.charCodeAt(i))) & TRIGRAM_MASK;
    if (i < 2 || keys.has(key)) continue;
    keys.add(key);
    const id = lowerBound(index.keys, key);
    const listed = index.keys[id] === key;
    const start = listed ? index.offsets[id]! : 0;
    const end = listed ? index.offsets[id + 1]! : 0;
    lists.push({ positions: index.postings.subarray(start, end), spans: index.spans.subarray(start, end), needleOffset: i - 2 });
  }
  return { needle, lists, charBits: null, exact: needle.length === 3 && unfolded, unfolded };
}

/** Whether review `pos` has every unit of a one- or two-unit query (folded). */
export function hasCharBits(index: TextIndex, pos: number, bits: Uint32Array): boolean {
  const base = pos * CHAR_SET_WORDS;
  const sets = index.charSets;
  // `bits & ~set` stays a signed 32-bit value, so comparing it with 0 is safe even for bit 31.
  return (
    (bits[0]! & ~sets[base]!) === 0 &&
    (bits[1]! & ~sets[base + 1]!) === 0 &&
    (bits[2]! & ~sets[base + 2]!) === 0 &&
    (bits[3]! & ~sets[base + 3]!) === 0
  );
}
