/**
 * Byte-exact JSON rendering of the datasets. The static build and the live sidecar both render
 * through these functions, so a since snapshot and a live since answer are the same bytes (and so
 * the same ETag). Reviews are serialised once each and joined, which keeps large lists cheap.
 *
 * The REST lists (search, since) give each review with its `log_entry` (core/dataset/review-log-entry.ts),
 * /reviews.json without: a listed review is the bytes of `JSON.stringify({ ...review, log_entry })`, made
 * from the review's cached bytes with the closing brace moved after the entry, never cached itself (the
 * entry moves with the log).
 */
import type { PublishedReview, ReviewLogEntry, ReviewsDataset } from '../schemas/published.ts';
import type { LogEntryLookup } from './review-log-entry.ts';

export type ReviewJsonCache = {
  json(index: number): string;
  /**
   * The same bytes in UTF-8, made once per review: an answer is put together from them (`joinReviewBytes`)
   * without first making a string as large as itself.
   */
  utf8(index: number): Buffer;
  readonly reviews: readonly PublishedReview[];
};

export function createReviewJsonCache(reviews: readonly PublishedReview[]): ReviewJsonCache {
  const cache: (string | undefined)[] = new Array(reviews.length);
  const bytes: (Buffer | undefined)[] = new Array(reviews.length);
  return {
    reviews,
    json(index) {
      return (cache[index] ??= JSON.stringify(reviews[index]));
    },
    utf8(index) {
      return (bytes[index] ??= Buffer.from(cache[index] ?? JSON.stringify(reviews[index])));
    },
  };
}

/** What follows a listed review's own JSON, less its closing brace: `,"log_entry":{…}}`. */
function logEntryTail(entry: ReviewLogEntry): string {
  return `,"log_entry":${JSON.stringify(entry)}}`;
}

/** The review at `index` as the REST lists give it. */
export function listedReviewJson(cache: ReviewJsonCache, index: number, logEntryOf: LogEntryLookup): string {
  const json = cache.json(index);
  const entry = logEntryOf(cache.reviews[index]!.id);
  return entry === undefined ? json : `${json.slice(0, -1)}${logEntryTail(entry)}`;
}

/**
 * Each listed review's `,"log_entry":{…}}` in UTF-8 (null: not in the log), made once per lookup, that is
 * once per build (review-log-entry.ts `logEntryLookupOf`): an answer of 20 reviews spent 12 µs of its 15 on
 * making them anew (on a 2-core machine, 2026-11-29).
 */
const entryTails = new WeakMap<LogEntryLookup, Map<string, Buffer | null>>();

function entryTailBytes(logEntryOf: LogEntryLookup, id: string): Buffer | undefined {
  let tails = entryTails.get(logEntryOf);
  if (tails === undefined) entryTails.set(logEntryOf, (tails = new Map()));
  let tail = tails.get(id);
  if (tail === undefined) {
    const entry = logEntryOf(id);
    tails.set(id, (tail = entry === undefined ? null : Buffer.from(logEntryTail(entry))));
  }
  return tail ?? undefined;
}

/**
 * `head`, the listed reviews at `positions` joined by commas, then `tail`, in one buffer: the bytes of
 * `${head}${positions.map(listedReviewJson).join(',')}${tail}`.
 */
export function joinListedReviewBytes(
  cache: ReviewJsonCache,
  positions: readonly number[],
  logEntryOf: LogEntryLookup,
  head: string,
  tail: string,
  /** Members the answer adds after the log entry (search's `matched_in`), as JSON `"name":value`, per position. */
  extraOf?: (pos: number) => string | undefined,
): Buffer {
  const parts = positions.map((pos) => {
    const bytes = cache.utf8(pos);
    const entryTail = entryTailBytes(logEntryOf, cache.reviews[pos]!.id);
    const extra = extraOf?.(pos);
    if (extra === undefined) return { bytes, tail: entryTail };
    const before = entryTail === undefined ? '' : entryTail.toString('utf8', 0, entryTail.length - 1);
    return { bytes, tail: Buffer.from(`${before},${extra}}`) };
  });
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.tail === undefined ? part.bytes.length : part.bytes.length - 1 + part.tail.length;
  const out = Buffer.allocUnsafe(length);
  let at = out.write(head);
  for (const [i, part] of parts.entries()) {
    if (i > 0) out[at++] = 0x2c;
    if (part.tail === undefined) {
      at += part.bytes.copy(out, at);
    } else {
      at += part.bytes.copy(out, at, 0, part.bytes.length - 1);
      at += part.tail.copy(out, at);
    }
  }
  out.write(tail, at);
  return out;
}

function joinReviews(cache: ReviewJsonCache, from: number, to: number): string {
  const parts: string[] = new Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) parts[i - from] = cache.json(i);
  return parts.join(',');
}

function joinListedReviews(cache: ReviewJsonCache, count: number, logEntryOf: LogEntryLookup): string {
  const parts: string[] = new Array(count);
  for (let i = 0; i < count; i++) parts[i] = listedReviewJson(cache, i, logEntryOf);
  return parts.join(',');
}

/** `/reviews.json`: `{ business, aggregate_rating, locations?, reviews }`. */
export function renderReviewsDataset(dataset: ReviewsDataset, cache = createReviewJsonCache(dataset.reviews)): string {
  const locations = dataset.locations === undefined ? '' : `,"locations":${JSON.stringify(dataset.locations)}`;
  return `{"business":${JSON.stringify(dataset.business)},"aggregate_rating":${JSON.stringify(dataset.aggregate_rating)}${locations},"reviews":[${joinReviews(cache, 0, cache.reviews.length)}]}`;
}

/**
 * `/api/reviews/since/{date}`: the reviews dated on or after the date, listed. They are the first `count`
 * reviews of the newest-first list, so within a build the body depends on `count` alone.
 */
export function renderSinceBody(cache: ReviewJsonCache, count: number, logEntryOf: LogEntryLookup): string {
  return `${SINCE_HEAD}${joinListedReviews(cache, count, logEntryOf)}${sinceTail(count)}`;
}

/** The same body for the reviews at `positions`, newest first: one location's since list (core/search/since-request.ts). */
export function renderSinceBodyAt(cache: ReviewJsonCache, positions: readonly number[], logEntryOf: LogEntryLookup): Buffer {
  return joinListedReviewBytes(cache, positions, logEntryOf, SINCE_HEAD, sinceTail(positions.length));
}

const SINCE_HEAD = '{"reviews":[';
const sinceTail = (count: number) => `],"count":${count},"total":${count}}`;
