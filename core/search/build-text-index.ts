/**
 * Builds the text index of text-index.ts in two passes over the lowercased fields: the first counts
 * each trigram list's length (and fills the character sets), the second writes postings and, review by
 * review, the offsets of every occurrence (in the span, or in the overflow array when more than two).
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

/** A trigram seen more often than this in one review is left unlisted (see FAR): no list grows unbounded. */
const MAX_LISTED = 1024;

/** Occurrences of the review being written: keys and offsets in field order, and counts per key. */
type Occurrences = { keys: Int32Array; offsets: Int32Array; length: number; perKey: Int32Array; written: Int32Array };

/** Counting pass over one field: list lengths (one per review and key) and the character set. */
function countField(field: string, pos: number, lastSeen: Int32Array, counts: Int32Array, charSets: Uint32Array) {
  let key = 0;
  const setBase = pos * CHAR_SET_WORDS;
  for (let i = 0; i < field.length; i++) {
    const folded = foldUnit(field.charCodeAt(i));
    key = ((key << UNIT_BITS) | folded) & TRIGRAM_MASK;
    charSets[setBase + (folded >>> 5)]! |= 1 << (folded & 31);
    if (i < 2 || lastSeen[key] === pos) continue;
    lastSeen[key] = pos;
    counts[key]!++;
  }
}

/** Writing pass over one field: a posting per new key, and every occurrence noted for writeSpans. */
function collectField(field: string, base: number, pos: number, lastSeen: Int32Array, cursors: Int32Array, postings: Int32Array, occ: Occurrences) {
  let key = 0;
  for (let i = 0; i < field.length; i++) {
    key = ((key << UNIT_BITS) | foldUnit(field.charCodeAt(i))) & TRIGRAM_MASK;
    if (i < 2) continue;
    if (lastSeen[key] !== pos) {
      lastSeen[key] = pos;
      postings[cursors[key]!++] = pos;
    }
    occ.keys[occ.length] = key;
    occ.offsets[occ.length] = Math.min(base + i - 2, FAR);
    occ.length++;
    occ.perKey[key]!++;
  }
}

/** Grows `overflow` (by doubling) so that it holds `needed` entries. */
function ensureOverflow(overflow: Uint16Array<ArrayBuffer>, needed: number): Uint16Array<ArrayBuffer> {
  if (needed <= overflow.length) return overflow;
  const grown = new Uint16Array(Math.max(needed, overflow.length * 2));
  grown.set(overflow);
  return grown;
}

export function buildTextIndex(reviews: readonly PublishedReview[]): TextIndex {
  const n = reviews.length;
  const lowerTexts = new Array<string>(n);
  const lowerTitles = new Array<string | null>(n);
  const textLengths = new Int32Array(n);
  const charSets = new Uint32Array(n * CHAR_SET_WORDS);
  const lastSeen = new Int32Array(TRIGRAM_KEYS).fill(-1);
  const counts = new Int32Array(TRIGRAM_KEYS);
  let longest = 0;
  for (let pos = 0; pos < n; pos++) {
    const review = reviews[pos]!;
    const text = review.text.toLowerCase();
    const title = review.title === null ? null : review.title.toLowerCase();
    lowerTexts[pos] = text;
    lowerTitles[pos] = title;
    textLengths[pos] = text.length;
    longest = Math.max(longest, text.length + (title?.length ?? 0));
    countField(text, pos, lastSeen, counts, charSets);
    if (title !== null) countField(title, pos, lastSeen, counts, charSets);
  }

  const offsets = new Int32Array(TRIGRAM_KEYS + 1);
  for (let key = 0; key < TRIGRAM_KEYS; key++) offsets[key + 1] = offsets[key]! + counts[key]!;
  const postings = new Int32Array(offsets[TRIGRAM_KEYS]!);
  const spans = new Uint32Array(postings.length);
  let overflow = new Uint16Array(1 << 16);
  let overflowLength = 0;
  const cursors = counts; // the counts are spent: reuse them as each list's write cursor
  cursors.set(offsets.subarray(0, TRIGRAM_KEYS));
  lastSeen.fill(-1);
  const occ: Occurrences = {
    keys: new Int32Array(longest),
    offsets: new Int32Array(longest),
    length: 0,
    perKey: new Int32Array(TRIGRAM_KEYS),
    written: new Int32Array(TRIGRAM_KEYS),
  };
  for (let pos = 0; pos < n; pos++) {
    occ.length = 0;
    collectField(lowerTexts[pos]!, 0, pos, lastSeen, cursors, postings, occ);
    const title = lowerTitles[pos];
    if (title !== null && title !== undefined) collectField(title, textLengths[pos]! + 1, pos, lastSeen, cursors, postings, occ);

    // Offsets ascend in field order, so each key's occurrences are written in ascending order.
    for (let o = 0; o < occ.length; o++) {
      const key = occ.keys[o]!;
      const offset = occ.offsets[o]!;
      const at = cursors[key]! - 1; // this review's posting: the last one written for the key
      const count = occ.perKey[key]!;
      const seen = occ.written[key]!++;
      if (count > MAX_LISTED) {
        spans[at] = FAR | (FAR << SPAN_BITS);
      } else if (count <= 2) {
        spans[at] = seen === 0 ? offset | (offset << SPAN_BITS) : (spans[at]! & FAR) | (offset << SPAN_BITS);
      } else {
        if (seen === 0) {
          overflow = ensureOverflow(overflow, overflowLength + count + 1);
          overflow[overflowLength] = count;
          spans[at] = MANY | overflowLength;
          overflowLength += count + 1;
        }
        overflow[(spans[at]! & ~MANY) + 1 + seen] = offset;
      }
    }
    for (let o = 0; o < occ.length; o++) {
      occ.perKey[occ.keys[o]!] = 0;
      occ.written[occ.keys[o]!] = 0;
    }
  }
  return {
    lowerTexts,
    textLengths,
    lowerTitles,
    charSets,
    offsets,
    postings,
    spans,
    overflow: overflow.slice(0, overflowLength),
  };
}
