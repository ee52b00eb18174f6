/**
 * Builds the text index of text-index.ts in two passes over the lowercased fields, review by review:
 * the first sizes every trigram list and its overflow region (and fills the character sets), the
 * second writes postings, spans and overflow entries. Each list's overflow entries are laid out in
 * posting order, so a walk down a list reads them as one forward stream.
 *
 * The scratch counters are indexed by trigram key over the whole key space (2²¹), but nothing walks
 * that space: only the keys that occur are visited, listed once as they are first seen. Fresh memory
 * comes zeroed from the system page by page as it is touched, so a small site's index touches a few
 * pages of it instead of writing and reading 40 MB, and keeps offsets for the keys that occur only.
 */
import type { PublishedReview } from '../schemas/published.ts';
import {
  CHAR_SET_WORDS,
  FAR,
  foldUnit,
  MANY,
  SPAN_BITS,
  TRIGRAM_KEYS,
  TRIGRAM_MASK,
  UNIT_BITS,
  type TextIndex,
} from './text-index.ts';

/** A trigram seen more often than this in one review is left unlisted (see FAR): no entry grows unbounded. */
const MAX_LISTED = 1024;

/** The occurrences of one review: keys and offsets in field order, and per key the count and a visit mark. */
type Occurrences = { keys: Int32Array; offsets: Int32Array; length: number; perKey: Int32Array; visited: Int32Array };

function collectField(field: string, base: number, occ: Occurrences, charSet: Uint32Array | null, setBase: number) {
  let key = 0;
  for (let i = 0; i < field.length; i++) {
    const folded = foldUnit(field.charCodeAt(i));
    key = ((key << UNIT_BITS) | folded) & TRIGRAM_MASK;
    if (charSet !== null) charSet[setBase + (folded >>> 5)]! |= 1 << (folded & 31);
    if (i < 2) continue;
    occ.keys[occ.length] = key;
    occ.offsets[occ.length] = Math.min(base + i - 2, FAR);
    occ.length++;
    occ.perKey[key]!++;
  }
}

function collectReview(text: string, title: string | null, occ: Occurrences, charSets: Uint32Array | null, pos: number) {
  occ.length = 0;
  collectField(text, 0, occ, charSets, pos * CHAR_SET_WORDS);
  if (title !== null) collectField(title, text.length + 1, occ, charSets, pos * CHAR_SET_WORDS);
}

function resetReview(occ: Occurrences) {
  for (let o = 0; o < occ.length; o++) {
    occ.perKey[occ.keys[o]!] = 0;
    occ.visited[occ.keys[o]!] = 0;
  }
}

/** Each listed key's size turned, in place, into where its region starts (keys ascending); returns the total. */
function toStarts(keys: Int32Array, sizes: Int32Array): number {
  let total = 0;
  for (const key of keys) {
    const size = sizes[key]!;
    sizes[key] = total;
    total += size;
  }
  return total;
}

/**
 * What is searched after the text: the title, then a translation's title and text (issue 43 item 3), so a
 * query finds a review by the customer's words or the translation's. The parts are joined by U+0000, which
 * no query holds, so no match straddles two of them.
 */
function searchableTitleOf(review: PublishedReview): string | null {
  if (review.translation === undefined) return review.title === null ? null : review.title.toLowerCase();
  return [review.title ?? '', review.translation.title ?? '', review.translation.text].join('\u0000').toLowerCase();
}

export function buildTextIndex(reviews: readonly PublishedReview[]): TextIndex {
  const n = reviews.length;
  const lowerTexts = new Array<string>(n);
  const lowerTitles = new Array<string | null>(n);
  const textLengths = new Int32Array(n);
  let longest = 0;
  for (let pos = 0; pos < n; pos++) {
    const review = reviews[pos]!;
    lowerTexts[pos] = review.text.toLowerCase();
    lowerTitles[pos] = searchableTitleOf(review);
    textLengths[pos] = lowerTexts[pos]!.length;
    longest = Math.max(longest, textLengths[pos]! + (lowerTitles[pos]?.length ?? 0));
  }
  const occ: Occurrences = {
    keys: new Int32Array(longest),
    offsets: new Int32Array(longest),
    length: 0,
    perKey: new Int32Array(TRIGRAM_KEYS),
    visited: new Int32Array(TRIGRAM_KEYS),
  };

  // Pass 1: list lengths and overflow sizes.
  const charSets = new Uint32Array(n * CHAR_SET_WORDS);
  const listSizes = new Int32Array(TRIGRAM_KEYS);
  const overflowSizes = new Int32Array(TRIGRAM_KEYS);
  const seen: number[] = [];
  for (let pos = 0; pos < n; pos++) {
    collectReview(lowerTexts[pos]!, lowerTitles[pos] ?? null, occ, charSets, pos);
    for (let o = 0; o < occ.length; o++) {
      const key = occ.keys[o]!;
      if (occ.visited[key]!++ !== 0) continue;
      if (listSizes[key]!++ === 0) seen.push(key);
      const count = occ.perKey[key]!;
      if (count > 2 && count <= MAX_LISTED) overflowSizes[key]! += count + 1;
    }
    resetReview(occ);
  }

  // Pass 2: postings, spans and overflow, written at each key's cursors.
  const keys = Int32Array.from(seen).sort();
  const offsets = new Int32Array(keys.length + 1);
  keys.forEach((key, id) => (offsets[id + 1] = offsets[id]! + listSizes[key]!));
  const listCursors = listSizes;
  keys.forEach((key, id) => (listCursors[key] = offsets[id]!));
  const overflowCursors = overflowSizes;
  const overflow = new Uint16Array(toStarts(keys, overflowCursors));
  const postings = new Int32Array(offsets[keys.length]!);
  const spans = new Uint32Array(postings.length);
  for (let pos = 0; pos < n; pos++) {
    collectReview(lowerTexts[pos]!, lowerTitles[pos] ?? null, occ, null, pos);
    // Offsets ascend in field order, so each key's occurrences are written in ascending order.
    for (let o = 0; o < occ.length; o++) {
      const key = occ.keys[o]!;
      const offset = occ.offsets[o]!;
      const count = occ.perKey[key]!;
      const seen = occ.visited[key]!++;
      if (seen === 0) postings[listCursors[key]!++] = pos;
      const at = listCursors[key]! - 1; // this review's posting: the last one written for the key
      if (count > MAX_LISTED) {
        spans[at] = FAR | (FAR << SPAN_BITS);
      } else if (count <= 2) {
        spans[at] = seen === 0 ? offset | (offset << SPAN_BITS) : (spans[at]! & FAR) | (offset << SPAN_BITS);
      } else {
        if (seen === 0) {
          const start = overflowCursors[key]!;
          overflowCursors[key] = start + count + 1;
          overflow[start] = count;
          spans[at] = MANY | start;
        }
        overflow[(spans[at]! & ~MANY) + 1 + seen] = offset;
      }
    }
    resetReview(occ);
  }
  return { lowerTexts, textLengths, lowerTitles, charSets, keys, offsets, postings, spans, overflow };
}
