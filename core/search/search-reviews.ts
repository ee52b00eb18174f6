/**
 * The search engine. Filters combine with AND; results are newest first, which is the index's
 * position order, so no sorting happens at query time. `sort=highest|lowest` orders by rating
 * first: the walk drops each match into its rating's bucket (each bucket stays newest first), and
 * the page is read from the buckets in rating order.
 *
 * Plan per query:
 * 1. since/until → a contiguous position range [lo, hi) (binary search).
 * 2. Lists, each cut to [lo, hi): rating, technician, service, aspect, owner reply, and for `query` either one exact list
 *    (a three-character trigram, or a popular needle's cached answer, needle-cache.ts) or the
 *    trigram lists that cover the needle, shortest first, plus a check of each candidate.
 * 3. The shortest list, or the range when it is shorter, drives the walk (candidate-walk.ts).
 * Cost: about |driver| × (lists + 1) probes, plus the needle check of each candidate that passes
 * them (needle-check.ts: trigram offsets, and the review itself only when they cannot decide);
 * `total` counts every match, so the walk never stops at `limit`. With no check left at all, total
 * is the driver's length and the page a slice.
 */
import type { PublishedReview } from '../schemas/published.ts';
import { cutProbe, listProbe, walkCandidates, type Probe, type Walk } from './candidate-walk.ts';
import { aspectListKey } from './aspect-lists.ts';
import { EMPTY_LIST, restrictToRange } from './posting-lists.ts';
import type { ResolvedSearchQuery } from './resolve-search-query.ts';
import { findDateRange, type ReviewIndex } from './review-index.ts';
import { planTextQuery, type TextPlan } from './text-index.ts';

export type SearchPage = {
  reviews: PublishedReview[];
  /** Each review's position in `index.reviews` (and so in the dataset's list), in page order. */
  positions: number[];
  /** Reviews in this page. */
  count: number;
  /** Reviews matching the filters. */
  total: number;
  limit: number;
  /** Matches skipped before this page. */
  offset: number;
};

/** Past the shortest few, more trigram lists filter out few candidates but cost a probe each. */
const SHORTEST_TRIGRAM_LISTS = 4;

type NeedleParts = Pick<Walk, 'probes' | 'charBits' | 'needle' | 'unfolded'>;

/**
 * The trigram lists to intersect: the shortest few, plus for every unit of the needle they leave
 * uncovered the shortest list covering it, so that spans can prove a match (needle-check.ts).
 */
function needleWalk(plan: TextPlan, lo: number, hi: number): NeedleParts {
  const lists = plan.lists.map((list) => cutProbe(list, lo, hi));
  const byLength = [...lists].sort((a, b) => a.positions.length - b.positions.length);
  const chosen = new Set(byLength.slice(0, SHORTEST_TRIGRAM_LISTS));
  const covered = new Uint8Array(plan.needle.length);
  for (const list of chosen) covered.fill(1, list.needleOffset, list.needleOffset + 3);
  for (let unit = 0; unit < covered.length; unit++) {
    if (covered[unit] === 1) continue;
    const cover = byLength.find((list) => list.needleOffset <= unit && unit <= list.needleOffset + 2);
    if (cover === undefined) continue; // a repeated trigram: its unit is left to the string check
    chosen.add(cover);
    covered.fill(1, cover.needleOffset, cover.needleOffset + 3);
  }
  const probes = byLength.filter((list) => chosen.has(list));
  return { probes, charBits: plan.charBits, needle: plan.exact ? null : plan.needle, unfolded: plan.unfolded };
}

/**
 * What `query` needs: nothing (empty), an exact list, or a plan to verify. A needle with many
 * candidates, searched a second time, gets its exact list computed over all reviews and cached, unless
 * the other filters already leave far fewer candidates (then this search checks only those).
 */
function findNeedle(index: ReviewIndex, query: string, otherCandidates: number): { exact: Int32Array } | { plan: TextPlan } | null {
  const plan = planTextQuery(index.text, query);
  if (plan === null) return null;
  if (plan.exact && plan.lists.length === 1) return { exact: plan.lists[0]!.positions };
  const cached = index.needles.get(plan.needle);
  if (cached !== undefined) return { exact: cached };
  const estimate = Math.min(index.reviews.length, ...plan.lists.map((list) => list.positions.length));
  if (estimate < index.needles.minCandidates || estimate > 2 * otherCandidates || !index.needles.noteMiss(plan.needle)) {
    return { plan };
  }

  const parts = needleWalk(plan, 0, index.reviews.length);
  const driver = parts.probes.shift() ?? null;
  const found: number[] = [];
  walkCandidates(index, { driver, lo: 0, hi: index.reviews.length, rating: 0, minRating: 1, ...parts }, (pos) => {
    found.push(pos);
  });
  const exact = Int32Array.from(found);
  index.needles.set(plan.needle, exact);
  return { exact };
}

function slicePage(index: ReviewIndex, driver: Int32Array | null, lo: number, from: number, to: number): number[] {
  const positions: number[] = [];
  for (let i = from; i < to; i++) positions.push(driver === null ? lo + i : driver[i]!);
  return positions;
}

function pageOf(index: ReviewIndex, positions: number[], total: number, limit: number, offset: number): SearchPage {
  return { reviews: positions.map((pos) => index.reviews[pos]!), positions, count: positions.length, total, limit, offset };
}

/** `query` comes from resolveSearchQuery: `mentions_technician` is a canonical name, `mentions_service` an id. */
export function searchReviews(index: ReviewIndex, query: ResolvedSearchQuery, page?: { offset: number }): SearchPage {
  const limit = query.limit;
  const offset = Math.max(0, Math.floor(page?.offset ?? 0));
  const empty: SearchPage = { reviews: [], positions: [], count: 0, total: 0, limit, offset };

  // Ratings are integers, so a decimal minimum means its ceiling.
  const minRating = query.min_rating === undefined ? 1 : Math.ceil(query.min_rating);
  let rating = query.rating ?? 0;
  if (rating !== 0 && rating < minRating) return empty;
  if (rating === 0 && minRating >= 5) rating = 5;
  // An exact rating already satisfies the minimum (checked above).
  const checkMin = rating === 0 ? minRating : 1;

  const { lo, hi } = findDateRange(index, query.since, query.until);
  if (lo >= hi) return empty;

  const named: Int32Array[] = [];
  if (query.mentions_technician !== undefined) named.push(index.byTechnician.get(query.mentions_technician) ?? EMPTY_LIST);
  if (query.mentions_service !== undefined) named.push(index.byService.get(query.mentions_service) ?? EMPTY_LIST);
  if (query.location !== undefined) named.push(index.byLocation.get(query.location) ?? EMPTY_LIST);
  const aspectKey = aspectListKey(query.aspect, query.aspect_sentiment);
  if (aspectKey !== undefined) named.push(index.byAspect.get(aspectKey) ?? EMPTY_LIST);
  if (query.has_response !== undefined) named.push(index.byResponse[`${query.has_response}`]);
  if (query.has_media !== undefined) named.push(index.byMedia[`${query.has_media}`]);
  const probes: Probe[] = named.map((list) => cutProbe(listProbe(list), lo, hi));
  const ratingList = rating === 0 ? null : restrictToRange(index.byRating[rating] ?? EMPTY_LIST, lo, hi);
  const otherCandidates = Math.min(hi - lo, ratingList?.length ?? hi, ...probes.map((probe) => probe.positions.length));
  if (otherCandidates === 0) return empty;

  const text = query.query === undefined ? null : findNeedle(index, query.query, otherCandidates);
  if (text !== null && 'exact' in text) probes.push(cutProbe(listProbe(text.exact), lo, hi));
  const verify: NeedleParts =
    text !== null && 'plan' in text ? needleWalk(text.plan, lo, hi) : { probes: [], charBits: null, needle: null, unfolded: false };
  probes.push(...verify.probes);
  probes.sort((a, b) => a.positions.length - b.positions.length);
  if (probes.some((probe) => probe.positions.length === 0)) return empty;

  // The driver: the shortest list, else the rating list (whose check it then replaces), else the range.
  let driver: Probe | null = null;
  if (probes.length > 0 && probes[0]!.positions.length <= (ratingList?.length ?? hi - lo)) {
    driver = probes.shift()!;
  } else if (ratingList !== null) {
    driver = listProbe(ratingList);
    rating = 0;
  }
  const { charBits, needle, unfolded } = verify;
  const walk: Walk = { driver, lo, hi, probes, rating, minRating: checkMin, charBits, needle, unfolded };

  if (query.sort === 'highest' || query.sort === 'lowest') {
    return collectByRating(index, walk, query.sort === 'highest' ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5], offset, limit);
  }
  const candidates = driver === null ? hi - lo : driver.positions.length;
  if (probes.length === 0 && walk.rating === 0 && walk.minRating <= 1 && charBits === null && needle === null) {
    const from = Math.min(offset, candidates);
    return pageOf(index, slicePage(index, driver?.positions ?? null, lo, from, Math.min(from + limit, candidates)), candidates, limit, offset);
  }

  const positions: number[] = [];
  let total = 0;
  walkCandidates(index, walk, (pos) => {
    total++;
    if (total > offset && positions.length < limit) positions.push(pos);
  });
  return pageOf(index, positions, total, limit, offset);
}

function collectByRating(index: ReviewIndex, walk: Walk, order: readonly number[], offset: number, limit: number): SearchPage {
  const buckets: number[][] = [[], [], [], [], [], []];
  let total = 0;
  walkCandidates(index, walk, (pos) => {
    total++;
    buckets[index.ratings[pos]!]!.push(pos);
  });
  const positions: number[] = [];
  let skip = offset;
  for (const rating of order) {
    const bucket = buckets[rating]!;
    if (skip >= bucket.length) {
      skip -= bucket.length;
      continue;
    }
    for (let i = skip; i < bucket.length && positions.length < limit; i++) positions.push(bucket[i]!);
    skip = 0;
    if (positions.length === limit) break;
  }
  return pageOf(index, positions, total, limit, offset);
}
