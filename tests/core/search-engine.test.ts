import { describe, expect, it } from 'vitest';
import type { PublishedBusiness, PublishedReview } from '../../core/schemas/published.ts';
import type { SearchQueryInput } from '../../core/schemas/search.ts';
import { countSince } from '../../core/order.ts';
import {
  createReviewIndex,
  parseSearchParams,
  resolveSearchQuery,
  searchReviews,
  type ReviewIndex,
} from '../../core/search/index.ts';
import { BOUNDARY_TEXT_HEAD, BOUNDARY_TITLE_TAIL, createEdgeReviews, FAR_NEEDLE } from '../../tools/fixtures/search/edge-reviews.ts';
import { createRandom, type Random } from '../../tools/fixtures/search/random.ts';
import { createSyntheticBusiness, createSyntheticReviews, SYNTHETIC_ASPECTS } from '../../tools/fixtures/search/synthetic-reviews.ts';

/** A search as a client sends it: the published input type of the filters. */
type Input = SearchQueryInput;

/** The oracle: every filter spelled out over every review, then sorted. Deliberately nothing clever. */
function searchNaively(reviews: PublishedReview[], business: PublishedBusiness, input: Input, offset: number) {
  const wanted = input.mentions_technician?.trim().toLowerCase();
  const technician = business.technicians.find((t) => [t.name, ...t.aliases].some((n) => n.toLowerCase() === wanted));
  const needle = input.query?.toLowerCase();
  const aspect = input.aspect?.trim().toLowerCase();
  const hasAspect = (r: PublishedReview) =>
    r.aspects.some((a) => (aspect === undefined || a.aspect === aspect) && (input.aspect_sentiment === undefined || a.polarity === input.aspect_sentiment));
  const matches = reviews
    .filter(
      (r) =>
        (input.rating === undefined || r.rating === input.rating) &&
        (input.min_rating === undefined || r.rating >= input.min_rating) &&
        (input.since === undefined || r.date >= input.since) &&
        (input.until === undefined || r.date <= input.until) &&
        (needle === undefined ||
          r.text.toLowerCase().includes(needle) ||
          (r.title ?? '').toLowerCase().includes(needle) ||
          (r.translation !== undefined && (r.translation.text.toLowerCase().includes(needle) || (r.translation.title ?? '').toLowerCase().includes(needle)))) &&
        (wanted === undefined || r.technicians.includes(technician!.name)) &&
        (input.mentions_service === undefined || r.services.includes(input.mentions_service.trim().toLowerCase())) &&
        ((aspect === undefined && input.aspect_sentiment === undefined) || hasAspect(r)) &&
        (input.has_response === undefined || (r.response !== null) === input.has_response) &&
        (input.has_media === undefined || (r.media.length > 0) === input.has_media),
    )
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? -1 : 1))
    .sort((a, b) => (input.sort === 'highest' ? b.rating - a.rating : input.sort === 'lowest' ? a.rating - b.rating : 0));
  const limit = input.limit ?? 20;
  return { total: matches.length, ids: matches.slice(offset, offset + limit).map((r) => r.id) };
}

const WORDS = ['on time', 'leak', 'thermostat', 'rude', 'price', 'PRICE', 'Clean', 'the', 'a', 'e', 'on', ' ', 'late.'];
const ODD_QUERIES = ['café', '👍', '🔧🔥', 'ß', 'ss', 'strasse', 'İ', 'i̇', 'ς', 'σ', 'οδος', 'ΟΔΟΣ', '—', '$89.99', '100%', '“quoted”', '(thanks!)', '\t', '\n', 'k', '\u212A', 'ﬁ', 'fi', 'xyzzy', 'aaa', 'aaaaa', 'ab ba'];

function pickSubstring(random: Random, text: string, maxLength: number): string {
  const start = random.int(0, Math.max(0, text.length - 1));
  return text.slice(start, start + random.int(1, maxLength));
}

function pickQuery(random: Random, reviews: PublishedReview[]): string {
  const review = random.pick(reviews);
  switch (random.int(0, 8)) {
    case 0:
      return random.pick(WORDS);
    case 1:
      return pickSubstring(random, review.text, 14);
    case 2:
      return pickSubstring(random, review.text, 2).toUpperCase();
    case 3:
      return review.title === null ? '' : pickSubstring(random, review.title, 8);
    case 4: // spans the title/text boundary: must not match through it
      return review.title === null ? 'ok' : `${review.title.slice(-3)}${review.text.slice(0, 3)}`;
    case 5:
      return random.pick(ODD_QUERIES);
    case 6:
      return pickSubstring(random, review.text, 40);
    default:
      return random.pick([...WORDS, FAR_NEEDLE, 'aways', `${BOUNDARY_TITLE_TAIL}${BOUNDARY_TEXT_HEAD}`]);
  }
}

function pickDate(random: Random, dates: string[]): string {
  const date = random.pick(dates);
  if (random.chance(0.7)) return date; // on a boundary: a day that has reviews
  const shifted = new Date(Date.parse(`${date}T00:00:00Z`) + random.int(-2, 2) * 86_400_000);
  return random.chance(0.1) ? random.pick(['1999-01-01', '2099-12-31']) : shifted.toISOString().slice(0, 10);
}

function pickInput(random: Random, reviews: PublishedReview[], business: PublishedBusiness): Input {
  const dates = reviews.map((r) => r.date);
  const input: Input = {};
  if (random.chance(0.25)) input.rating = random.int(1, 5);
  if (random.chance(0.2)) input.min_rating = random.pick([1, 1.5, 2, 3, 3.5, 4, 4.01, 5]);
  if (random.chance(0.35)) input.since = pickDate(random, dates);
  if (random.chance(0.35)) input.until = pickDate(random, dates);
  if (input.since !== undefined && input.until !== undefined && input.since > input.until) {
    [input.since, input.until] = [input.until, input.since];
  }
  if (random.chance(0.55)) input.query = pickQuery(random, reviews);
  if (random.chance(0.25)) {
    const technician = random.pick(business.technicians);
    const name = random.pick([technician.name, ...technician.aliases]);
    input.mentions_technician = random.pick([name, name.toUpperCase(), name.toLowerCase(), `  ${name}\t`]);
  }
  if (random.chance(0.25)) {
    const id = random.pick(business.services).id;
    input.mentions_service = random.chance(0.8) ? id : ` ${id.toUpperCase()} `;
  }
  if (random.chance(0.25)) {
    const id = random.pick(SYNTHETIC_ASPECTS);
    input.aspect = random.chance(0.8) ? id : ` ${id.toUpperCase()} `;
  }
  if (random.chance(0.25)) input.aspect_sentiment = random.pick(['positive', 'neutral', 'negative'] as const);
  if (random.chance(0.2)) input.has_response = random.chance(0.5);
  if (random.chance(0.2)) input.has_media = random.chance(0.5);
  if (random.chance(0.3)) input.sort = random.pick(['newest', 'highest', 'lowest'] as const);
  if (random.chance(0.6)) input.limit = random.pick([1, 2, 5, 20, 50, 99, 100]);
  return input;
}

/** The same input as a REST query string, to run parseSearchParams on the way. */
function toSearchParams(input: Input): URLSearchParams {
  return new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)]));
}

function compareWithOracle(index: ReviewIndex, reviews: PublishedReview[], business: PublishedBusiness, seed: number, runs: number) {
  const random = createRandom(seed);
  let nonEmpty = 0;
  for (let run = 0; run < runs; run++) {
    const input = pickInput(random, reviews, business);
    const viaRest = random.chance(0.5);
    const parsed = viaRest ? parseSearchParams(toSearchParams(input)) : { input, issues: [] };
    expect(parsed.issues, JSON.stringify(input)).toEqual([]);
    const resolved = resolveSearchQuery(parsed.input, index, parsed.issues);
    if (!resolved.ok) throw new Error(`refused ${JSON.stringify(input)}: ${JSON.stringify(resolved.issues)}`);
    const expectedAll = searchNaively(reviews, business, input, 0);
    const offset = random.chance(0.7) ? 0 : random.int(0, expectedAll.total + 3);
    const expected = offset === 0 ? expectedAll : searchNaively(reviews, business, input, offset);
    const actual = searchReviews(index, resolved.query, { offset });
    const context = `${JSON.stringify(input)} offset ${offset}`;
    expect({ total: actual.total, ids: actual.reviews.map((r) => r.id) }, context).toEqual(expected);
    expect(actual.count, context).toBe(expected.ids.length);
    expect(actual.limit, context).toBe(input.limit ?? 20);
    expect(actual.offset, context).toBe(offset);
    if (expected.total > 0) nonEmpty++;
  }
  // The generator must exercise matches, not only empty answers.
  expect(nonEmpty).toBeGreaterThan(runs / 3);
}

const business = createSyntheticBusiness();
const reviews = [...createSyntheticReviews({ count: 1_500, seed: 99, lastDate: '2025-03-12', days: 500, oddShare: 0.15 }, business), ...createEdgeReviews()]
  .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? -1 : 1));

describe('searchReviews', () => {
  const index = createReviewIndex(reviews, business, { aspects: SYNTHETIC_ASPECTS });

  it('agrees with the naive oracle over many seeded parameter combinations', () => {
    compareWithOracle(index, reviews, business, 1, 1_500);
  });

  it('agrees with the oracle when popular needles come from the exact-answer cache', () => {
    // A tiny cache that caches almost every needle and evicts all the time.
    const cached = createReviewIndex(reviews, business, {
      needleCache: { minCandidates: 1, maxEntries: 6, maxPositions: 3_000 },
      aspects: SYNTHETIC_ASPECTS,
    });
    compareWithOracle(cached, reviews, business, 2, 800);
    compareWithOracle(cached, reviews, business, 2, 800); // the same needles again: cached, then answered from the cache
    expect(cached.needles.size).toBeGreaterThan(0);
    const eager = createReviewIndex(reviews, business, {
      needleCache: { minCandidates: 1, maxEntries: 6, maxPositions: 3_000, maxMissed: 0 },
      aspects: SYNTHETIC_ASPECTS,
    });
    compareWithOracle(eager, reviews, business, 3, 800);
    expect(eager.needles.size).toBeGreaterThan(0);
  });

  it('agrees with the oracle when some reviews carry a translation, matching it but never across its parts', () => {
    // Every third review carries another review's words as its translation (issue 43 item 3).
    const translated = reviews.map((r, i) =>
      i % 3 !== 0
        ? r
        : { ...r, translation: { text: reviews[(i + 7) % reviews.length]!.text, title: i % 2 === 0 ? 'Translated title' : null, language: 'en', by: 'google' } },
    );
    const withTranslations = createReviewIndex(translated, business, { aspects: SYNTHETIC_ASPECTS });
    compareWithOracle(withTranslations, translated, business, 4, 1_000);
    // A needle across the title and the translation's title, or its title and text, matches nothing there.
    const straddles = translated.filter((r) => r.translation !== undefined && r.title !== null && r.translation.title !== null).slice(0, 20);
    for (const review of straddles) {
      for (const query of [`${review.title!.slice(-3)}translated`, `title${review.translation!.text.slice(0, 4)}`]) {
        const resolved = resolveSearchQuery({ query, limit: 100 }, withTranslations);
        if (!resolved.ok) throw new Error(query);
        const expected = searchNaively(translated, business, { query, limit: 100 }, 0);
        expect(searchReviews(withTranslations, resolved.query).reviews.map((r) => r.id), query).toEqual(expected.ids);
      }
    }
    expect(straddles.length).toBeGreaterThan(0);
  });

  it('caches a needle at its second search, not its first', () => {
    const fresh = createReviewIndex(reviews, business, { needleCache: { minCandidates: 1 } });
    const first = searchReviews(fresh, { query: 'price', limit: 5 });
    expect(fresh.needles.size).toBe(0);
    const second = searchReviews(fresh, { query: 'PRICE', limit: 5 });
    expect(fresh.needles.size).toBe(1);
    expect(searchReviews(fresh, { query: 'Price', limit: 5 })).toEqual(second);
    expect(second).toEqual(first);
  });

  it('never matches a query across the end of the title and the start of the text', () => {
    const run = (query: string) => searchReviews(index, { query, limit: 100 });
    expect(run(BOUNDARY_TITLE_TAIL).reviews.map((r) => r.id)).toEqual(['edge-boundary']);
    expect(run(BOUNDARY_TEXT_HEAD).reviews.map((r) => r.id)).toEqual(['edge-boundary']);
    expect(run(`${BOUNDARY_TITLE_TAIL}${BOUNDARY_TEXT_HEAD}`).total).toBe(0);
    expect(run(`${BOUNDARY_TITLE_TAIL.slice(-2)}${BOUNDARY_TEXT_HEAD.slice(0, 2)}`).total).toBe(0);
  });

  // The index folds every unit outside printable ASCII into 32 shared codes: é (U+00E9) and ĩ (U+0129)
  // share one, as do a tab and é. Only the string check may tell them apart.
  it.each([['afĩ'], ['ĩ'], ['fĩ'], ['\t'], ['é'], ['ĩé'], ['caf'], ['afé']])('tells folded look-alikes apart (%j)', (query) => {
    const expected = searchNaively(reviews, business, { query, limit: 100 }, 0);
    const actual = searchReviews(index, { query, limit: 100 });
    expect({ total: actual.total, ids: actual.reviews.map((r) => r.id) }).toEqual(expected);
    if (query === 'é' || query === 'caf') expect(expected.total).toBeGreaterThan(0);
  });

  it.each([['ab ba'], ['b ba'], ['on time!'], ['this text.'], ['aaaa']])('finds %j at the very end of a text or title', (query) => {
    const expected = searchNaively(reviews, business, { query, limit: 100 }, 0);
    expect(expected.total).toBeGreaterThan(0);
    const actual = searchReviews(index, { query, limit: 100 });
    expect({ total: actual.total, ids: actual.reviews.map((r) => r.id) }).toEqual(expected);
  });

  it('finds a needle beyond the offsets the index records', () => {
    expect(searchReviews(index, { query: FAR_NEEDLE.toUpperCase(), limit: 5 }).reviews.map((r) => r.id)).toEqual(['edge-long']);
  });

  // edge-long repeats one sentence 1,900 times (more occurrences than the index lists) over 70,000
  // characters (past the offsets it records); edge-repeat repeats letters within a word.
  it.each([['filler words and'], ['them. plain'], ['them. then ' + FAR_NEEDLE], ['past offset'], ['aaaaaaaa '], ['aaaaaaaaa'], ['bbbb aaaa ab']])(
    'agrees with the oracle on heavily repeated text (%j)',
    (query) => {
      const expected = searchNaively(reviews, business, { query, limit: 100 }, 0);
      const actual = searchReviews(index, { query, limit: 100 });
      expect({ total: actual.total, ids: actual.reviews.map((r) => r.id) }).toEqual(expected);
      if (!query.startsWith('aaaaaaaaa')) expect(expected.total).toBeGreaterThan(0);
    },
  );

  // The index lists only the trigrams that occur: one that does not must find no list, not its neighbour's.
  it.each([['qqq'], ['zqx'], ['xqj'], ['leak qqq'], ['~~~']])('finds nothing for a trigram no review holds (%j)', (query) => {
    expect(searchNaively(reviews, business, { query, limit: 100 }, 0).total).toBe(0);
    expect(searchReviews(index, { query, limit: 100 }).total).toBe(0);
  });

  it('matches the title alone when the text lacks the needle', () => {
    const ids = searchReviews(index, { query: 'thermostat trouble', limit: 5 }).reviews.map((r) => r.id);
    expect(ids).toEqual(['edge-title-only']);
  });

  it('returns every match in pages that concatenate to the full newest-first list', () => {
    const query = { query: 'price', min_rating: 2, limit: 7 };
    const all = searchNaively(reviews, business, { ...query, limit: 10_000 }, 0);
    const paged: string[] = [];
    for (let offset = 0; offset < all.total + 7; offset += 7) {
      const page = searchReviews(index, query, { offset });
      expect(page.total).toBe(all.total);
      paged.push(...page.reviews.map((r) => r.id));
    }
    expect(all.total).toBeGreaterThan(20);
    expect(paged).toEqual(all.ids);
  });

  it('matches aspect_sentiment alone on any aspect, and with aspect on that aspect only', () => {
    // A review with two aspects of opposite polarity tells the combinations apart.
    const mixed = reviews.find((r) => {
      const polarities = new Set(r.aspects.map((a) => a.polarity));
      return polarities.has('positive') && polarities.has('negative');
    })!;
    const praised = mixed.aspects.find((a) => a.polarity === 'positive')!.aspect;
    const faulted = mixed.aspects.find((a) => a.polarity === 'negative')!.aspect;
    const ids = (q: Omit<Input, 'limit'>) => {
      const resolved = resolveSearchQuery({ ...q, limit: 100, since: mixed.date, until: mixed.date }, index);
      if (!resolved.ok) throw new Error(JSON.stringify(resolved.issues));
      return searchReviews(index, resolved.query).reviews.map((r) => r.id);
    };
    expect(ids({ aspect_sentiment: 'positive' })).toContain(mixed.id);
    expect(ids({ aspect_sentiment: 'negative' })).toContain(mixed.id);
    expect(ids({ aspect: praised, aspect_sentiment: 'positive' })).toContain(mixed.id);
    expect(ids({ aspect: praised, aspect_sentiment: 'negative' })).not.toContain(mixed.id);
    expect(ids({ aspect: faulted, aspect_sentiment: 'positive' })).not.toContain(mixed.id);
    expect(ids({ aspect: faulted.toUpperCase() })).toContain(mixed.id);
  });

  it('accepts an aspect of the set that no review mentions, with no match', () => {
    const resolved = resolveSearchQuery({ aspect: 'warranty' }, index);
    expect(resolved.ok).toBe(true);
    if (resolved.ok) expect(searchReviews(index, resolved.query).total).toBe(0);
  });

  it('includes both boundary days of since and until', () => {
    const day = '2025-03-10';
    const result = searchReviews(index, { since: day, until: day, limit: 100 });
    expect(result.reviews.map((r) => r.date).every((d) => d === day)).toBe(true);
    expect(result.total).toBe(reviews.filter((r) => r.date === day).length);
    expect(result.reviews.map((r) => r.id)).toContain('edge-boundary');
  });

  it('answers empty results for contradictions and for an empty index', () => {
    expect(searchReviews(index, { rating: 2, min_rating: 3, limit: 20 }).total).toBe(0);
    expect(searchReviews(index, { since: '2099-01-01', limit: 20 }).total).toBe(0);
    const emptyIndex = createReviewIndex([], business);
    expect(searchReviews(emptyIndex, { query: 'leak', limit: 20 })).toEqual({ reviews: [], positions: [], count: 0, total: 0, limit: 20, offset: 0 });
    expect(countSince(emptyIndex.reviews, '2020-01-01')).toBe(0);
  });

  it.each([
    { query: 'on time', limit: 7 },
    { min_rating: 4, limit: 5 },
    { sort: 'lowest' as const, limit: 9 },
    { limit: 3 },
  ])('gives each review of a page with its position in the index (the JSON cache reads by position): %j', (query) => {
    const page = searchReviews(index, query, { offset: 2 });
    expect(page.reviews.length).toBeGreaterThan(0);
    expect(page.positions.map((pos) => index.reviews[pos])).toEqual(page.reviews);
  });
});

describe('countSince', () => {
  const index = createReviewIndex(reviews, business);
  const dates = [...new Set(reviews.map((r) => r.date))];

  it.each([['1999-01-01'], ['2099-12-31'], ...dates.slice(0, 40).map((d) => [d]), ...dates.slice(-5).map((d) => [d])])(
    'counts the reviews dated on or after %s',
    (date) => {
      expect(countSince(index.reviews, date)).toBe(reviews.filter((r) => r.date >= date).length);
    },
  );

  it('counts a prefix of the newest-first array', () => {
    const count = countSince(index.reviews, '2025-01-01');
    expect(reviews.slice(0, count).every((r) => r.date >= '2025-01-01')).toBe(true);
    expect(reviews[count]!.date < '2025-01-01').toBe(true);
  });
});

describe('createReviewIndex', () => {
  it('refuses reviews that are not newest first', () => {
    expect(() => createReviewIndex([...reviews].reverse(), business)).toThrow(/not newest first/);
  });
});
