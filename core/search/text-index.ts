/**
 * Candidate index for the `query` filter. A review matches when the lowercased query
 * (String.prototype.toLowerCase) is a substring of its lowercased text or of its lowercased title;
 * each field is searched on its own, so a match never spans the end of the title and the start of the text.
 *
 * Rules of the index:
 * - Every field is lowercased once at build time; a query is lowercased the same way, so the two sides
 *   always agree, whatever toLowerCase does to length or context (İ, final sigma).
 * - Code units are folded to 7 bits: printable ASCII (0x20–0x7e) keeps its code, every other unit
 *   (controls, non-ASCII, surrogate halves) shares the codes 0x00–0x1f. Folding only merges, so a list
 *   is always a superset of the true one, and exact when every unit of its key is printable ASCII.
 * - Trigram lists: for each folded trigram, the ascending positions of the reviews whose text or title
 *   contains it, stored as one CSR array (offsets + postings). A review containing a query of three or
 *   more units contains each of its trigrams, so intersecting those lists gives every match plus a few
 *   false candidates, which `includes` removes.
 * - Each posting also records where its trigram first occurs in the review (`firstAt`: text offsets,
 *   then title offsets counted from text length + 1). An occurrence of the needle holds the needle's
 *   trigram j at its own offset + j, so in the text it cannot start before firstAt − j, and cannot be
 *   in the text at all when that trigram first occurs in the title. The exact check then searches the
 *   text only from that bound, which for a match is usually the match itself.
 * - Character sets: 128 bits per review (the folded units of text and title) do the same for one- and
 *   two-unit queries, which have no trigram.
 */
import type { PublishedReview } from '../schemas/published.ts';

const UNIT_BITS = 7;
const TRIGRAM_KEYS = 1 << (3 * UNIT_BITS);
const TRIGRAM_MASK = TRIGRAM_KEYS - 1;
/** `firstAt` value for an offset too large to store: the check falls back to `includes`. */
export const FAR = 0xffff;
/** 32-bit words of a review's character set. */
export const CHAR_SET_WORDS = 4;

export type TextIndex = {
  lowerTexts: string[];
  /** `lowerTexts[pos].length`, kept compact so deciding where to search does not touch the string. */
  textLengths: Int32Array;
  lowerTitles: (string | null)[];
  /** CHAR_SET_WORDS words per review position. */
  charSets: Uint32Array;
  /** Trigram key k owns postings[offsets[k] .. offsets[k + 1]) and the same slice of firstAt. */
  offsets: Int32Array;
  postings: Int32Array;
  firstAt: Uint16Array;
};

/** One trigram of a query: the reviews containing it, where it first occurs, and where it sits in the needle. */
export type TrigramList = { positions: Int32Array; firstAt: Uint16Array; needleOffset: number };

/** How the engine narrows and checks the `query` filter. */
export type TextPlan = {
  needle: string;
  /** Lists that every match belongs to (possibly more than the matches), one per distinct trigram. */
  lists: TrigramList[];
  /** Character-set bits every match has (one- and two-unit queries), else null. */
  charBits: Uint32Array | null;
  /** Whether the lists or bits alone decide, so `includes` can be skipped. */
  exact: boolean;
};

function foldUnit(unit: number): number {
  return unit >= 0x20 && unit <= 0x7e ? unit : unit & 0x1f;
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit > 0x7e) return false;
  }
  return true;
}

/**
 * One pass over a field: counts (postings === null) or fills the trigram lists, and adds the field's
 * units to the review's character set. `lastSeen` keeps a review from entering one list twice.
 */
function visitField(
  field: string,
  base: number,
  pos: number,
  lastSeen: Int32Array,
  counts: Int32Array,
  charSets: Uint32Array,
  postings: Int32Array | null,
  firstAt: Uint16Array | null,
): void {
  let key = 0;
  const setBase = pos * CHAR_SET_WORDS;
  for (let i = 0; i < field.length; i++) {
    const folded = foldUnit(field.charCodeAt(i));
    key = ((key << UNIT_BITS) | folded) & TRIGRAM_MASK;
    if (postings === null) charSets[setBase + (folded >>> 5)]! |= 1 << (folded & 31);
    if (i < 2 || lastSeen[key] === pos) continue;
    lastSeen[key] = pos;
    if (postings === null || firstAt === null) {
      counts[key]!++;
    } else {
      const at = counts[key]!++;
      postings[at] = pos;
      firstAt[at] = Math.min(base + i - 2, FAR);
    }
  }
}

export function buildTextIndex(reviews: readonly PublishedReview[]): TextIndex {
  const n = reviews.length;
  const lowerTexts = new Array<string>(n);
  const lowerTitles = new Array<string | null>(n);
  const charSets = new Uint32Array(n * CHAR_SET_WORDS);
  const counts = new Int32Array(TRIGRAM_KEYS);
  const lastSeen = new Int32Array(TRIGRAM_KEYS).fill(-1);

  for (let pos = 0; pos < n; pos++) {
    const review = reviews[pos]!;
    const text = review.text.toLowerCase();
    const title = review.title === null ? null : review.title.toLowerCase();
    lowerTexts[pos] = text;
    lowerTitles[pos] = title;
    visitField(text, 0, pos, lastSeen, counts, charSets, null, null);
    if (title !== null) visitField(title, text.length + 1, pos, lastSeen, counts, charSets, null, null);
  }

  const offsets = new Int32Array(TRIGRAM_KEYS + 1);
  for (let key = 0; key < TRIGRAM_KEYS; key++) offsets[key + 1] = offsets[key]! + counts[key]!;
  const postings = new Int32Array(offsets[TRIGRAM_KEYS]!);
  const firstAt = new Uint16Array(postings.length);
  // Second pass: `counts` becomes each list's write cursor.
  counts.set(offsets.subarray(0, TRIGRAM_KEYS));
  lastSeen.fill(-1);
  for (let pos = 0; pos < n; pos++) {
    const text = lowerTexts[pos]!;
    visitField(text, 0, pos, lastSeen, counts, charSets, postings, firstAt);
    const title = lowerTitles[pos];
    if (title !== null && title !== undefined) {
      visitField(title, text.length + 1, pos, lastSeen, counts, charSets, postings, firstAt);
    }
  }
  const textLengths = Int32Array.from(lowerTexts, (text) => text.length);
  return { lowerTexts, textLengths, lowerTitles, charSets, offsets, postings, firstAt };
}

/** The lists, bits and checks that find reviews containing `query`; null when `query` is empty (no filter). */
export function planTextQuery(index: TextIndex, query: string): TextPlan | null {
  const needle = query.toLowerCase();
  if (needle.length === 0) return null;
  const printable = isPrintableAscii(needle);

  if (needle.length < 3) {
    const charBits = new Uint32Array(CHAR_SET_WORDS);
    for (let i = 0; i < needle.length; i++) {
      const folded = foldUnit(needle.charCodeAt(i));
      charBits[folded >>> 5]! |= 1 << (folded & 31);
    }
    return { needle, lists: [], charBits, exact: needle.length === 1 && printable };
  }

  const lists: TrigramList[] = [];
  const keys = new Set<number>();
  let key = 0;
  for (let i = 0; i < needle.length; i++) {
    key = ((key << UNIT_BITS) | foldUnit(needle.charCodeAt(i))) & TRIGRAM_MASK;
    if (i < 2 || keys.has(key)) continue;
    keys.add(key);
    const start = index.offsets[key]!;
    const end = index.offsets[key + 1]!;
    lists.push({ positions: index.postings.subarray(start, end), firstAt: index.firstAt.subarray(start, end), needleOffset: i - 2 });
  }
  return { needle, lists, charBits: null, exact: needle.length === 3 && printable };
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

/**
 * The exact check: the needle inside the text or inside the title, never across them. `textFrom` is a
 * proven lower bound of where it can start in the text (0 when nothing is known), −1 when the text
 * cannot hold it.
 */
export function containsNeedle(index: TextIndex, pos: number, needle: string, textFrom = 0): boolean {
  if (textFrom >= 0 && index.lowerTexts[pos]!.indexOf(needle, textFrom) !== -1) return true;
  const title = index.lowerTitles[pos];
  return title !== null && title !== undefined && title.includes(needle);
}
