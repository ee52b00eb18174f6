/**
 * What the search page marks (`<mark>`) in each result: where the query occurs, found the way the search
 * matches it (core/search/text-index.ts: String.prototype.toLowerCase, then a substring), and, after
 * an aspect link (`/search/?aspect=price&aspect_sentiment=negative`), the words that decided that
 * aspect, from the review's published evidence offsets. Ranges are UTF-16 offsets into the review's
 * own `text` or `title`, like the evidence spans.
 */
import type { Polarity } from '../schemas/aspects.ts';
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';

export type MarkRange = { start: number; end: number };
export type ReviewMarks = { title: MarkRange[]; text: MarkRange[] };
export type MarkedSegment = { text: string; marked: boolean };

/**
 * Every occurrence of `query` in `text`, without overlaps, found exactly as the index finds it: in
 * the whole text lowered at once, so context rules such as the final sigma hold (`ΟΔΟΣ` lowers to
 * `οδος`, whose `ς` a character-by-character lowering would miss). Lowering may change a string's length
 * (`İ` becomes two units): then each character's own lowering tells how many units it became, and each
 * match is widened to the whole characters it touches.
 */
export function findQueryRanges(text: string, query: string): MarkRange[] {
  const needle = query.toLowerCase();
  if (needle === '') return [];
  const lower = text.toLowerCase();
  if (lower.length === text.length) return findAll(lower, needle).map((start) => ({ start, end: start + needle.length }));
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    for (let k = char.toLowerCase().length; k > 0; k--) {
      from.push(i);
      to.push(i + char.length);
    }
    i += char.length;
  }
  // A context rule that changed a length would misplace the offsets: mark nothing rather than the wrong words.
  if (from.length !== lower.length) return [];
  return findAll(lower, needle).map((start) => ({ start: from[start]!, end: to[start + needle.length - 1]! }));
}

function findAll(haystack: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) starts.push(at);
  return starts;
}

/** The ranges sorted, with overlapping or touching ones joined. */
export function mergeRanges(ranges: readonly MarkRange[]): MarkRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: MarkRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * What to mark in a review: the query's occurrences, and when the search names an aspect or an opinion
 * (`aspect_sentiment`), the evidence of the review's aspects that it selects.
 */
export function findReviewMarks(
  review: Pick<PublishedReview, 'text' | 'title' | 'aspects'>,
  marks: { query?: string; aspect?: string; polarity?: Polarity },
): ReviewMarks {
  const found: ReviewMarks = { title: [], text: [] };
  if (marks.query !== undefined) {
    found.text.push(...findQueryRanges(review.text, marks.query));
    if (review.title !== null) found.title.push(...findQueryRanges(review.title, marks.query));
  }
  if (marks.aspect !== undefined || marks.polarity !== undefined) {
    for (const aspect of review.aspects) {
      if ((marks.aspect ?? aspect.aspect) !== aspect.aspect || (marks.polarity ?? aspect.polarity) !== aspect.polarity) continue;
      for (const span of aspect.evidence) found[span.field].push({ start: span.start, end: span.end });
    }
  }
  return { title: mergeRanges(found.title), text: mergeRanges(found.text) };
}

/**
 * `text.slice(from, to)` cut into plain and marked pieces (`ranges` merged, in `text`'s offsets; a range
 * that crosses `from` or `to` is cut there).
 */
export function splitMarked(text: string, ranges: readonly MarkRange[], from = 0, to = text.length): MarkedSegment[] {
  const segments: MarkedSegment[] = [];
  let at = from;
  const push = (end: number, marked: boolean) => {
    if (end > at) segments.push({ text: text.slice(at, end), marked });
    at = Math.max(at, end);
  };
  for (const range of ranges) {
    const start = Math.max(range.start, from);
    const end = Math.min(range.end, to);
    if (end <= start || end <= at) continue;
    push(start, false);
    push(end, true);
  }
  push(to, false);
  return segments;
}

const namesOfBusiness = new WeakMap<PublishedBusiness, string[]>();

/** The names generated prose may contain: the business's, its technicians' and services' (aliases too), its areas'. Longest first. */
export function listBusinessNames(business: PublishedBusiness): string[] {
  let names = namesOfBusiness.get(business);
  if (names === undefined) {
    const all = [business.name, ...business.service_areas, ...[...business.technicians, ...business.services].flatMap((e) => [e.name, ...e.aliases])];
    names = [...new Set(all.filter((name) => name !== ''))].sort((a, b) => b.length - a.length);
    namesOfBusiness.set(business, names);
  }
  return names;
}

/** Where `names` occur in `text`, exactly as written, merged (for `<bdi>` around each in generated prose). */
export function findNameRanges(text: string, names: readonly string[]): MarkRange[] {
  return mergeRanges(names.flatMap((name) => findAll(text, name).map((start) => ({ start, end: start + name.length }))));
}
