/**
 * One month of reviews. Each month draws from its own random streams (seed + month), so a month's
 * reviews depend only on the seed, the month, how many it gets and where it starts in the overall
 * sequence, and the generator never needs more than one month in memory. Facts (rating, service,
 * technician, tags) and words come from separate streams, so rewording a phrase bank does not
 * reshuffle who did what.
 */
import type { ReviewContent } from '../../core/schemas/content.ts';
import { createRandom, type Random } from './prng.ts';
import { BUSINESS, SERVICES, TECHNICIANS, type ServiceProfile, type TechnicianProfile } from './business.ts';
import type { Month } from './calendar.ts';
import { pickAuthor, writeReply, writeTitle } from './extras.ts';
import { writeReview } from './review-text.ts';
import { formatDollars, type TextContext } from './template.ts';
import { createLocationRandom, placeReview, writePhoneOf } from './locations.ts';
import { pickSpanishAuthor, SPANISH_SHARE_OF_GOOGLE, writeSpanishReview } from './spanish-review.ts';

export type MonthPlan = {
  month: Month;
  count: number;
  unverified: number;
  /** Position of the month's first review among all reviews. */
  firstIndex: number;
  idWidth: number;
  seed: string;
  end: string;
  /** The demo's own additions: each review's location, and reviews written in Spanish with Google's translation. */
  demo?: boolean;
};

const SOURCES = [['google', 45], ['yelp', 18], ['direct', 15], ['facebook', 12], ['angi', 10]] as const;
const TITLE_CHANCE: Record<string, number> = { google: 0.5, yelp: 0.55, direct: 0.9, facebook: 0.4, angi: 0.95 };
const AREAS = [30, 12, 12, 10, 9, 7, 7, 6].map((w, i) => [BUSINESS.service_areas[i]!, w] as const);
const NAMES_TECH = [0, 0.3, 0.35, 0.45, 0.55, 0.62];
const TAGS_TECH = 0.25;
const TAGS_SERVICE = 0.35;
const REPLY_CHANCE = [0, 0.9, 0.85, 0.7, 0.3, 0.29];
const REPLY_DELAY = [[0, 25], [1, 30], [2, 18], [3, 12], [4, 7], [5, 5], [6, 3]] as const;

/** What the review is about, beyond what its content says: the job it came from (jobs.ts). */
export type ReviewFacts = { service: string; technician: string; area: string | undefined };

/** The demo's streams for what it adds (locations.ts, spanish-review.ts), apart from the review's own. */
type DemoStreams = { locations: Random; spanish: Random };

export function generateMonthReviews(plan: MonthPlan, facts?: Map<string, ReviewFacts>): ReviewContent[] {
  const { month, count } = plan;
  const rng = createRandom(`${plan.seed}|${month.key}`);
  const words = createRandom(`${plan.seed}|${month.key}|words`);
  const demo = plan.demo ? { locations: createLocationRandom(plan.seed, month.key), spanish: createRandom(`${plan.seed}|${month.key}|spanish`) } : undefined;
  const days = Array.from({ length: count }, () => rng.int(1, month.lastDay)).sort((a, b) => a - b);
  const unverified = new Set(rng.sample([...days.keys()], plan.unverified));
  const ratings = rng.sample(
    days.map((_, i) => ratingAt(plan.firstIndex + i, month.progress)),
    count,
  );
  return days.map((day, i) => {
    const date = `${month.key}-${String(day).padStart(2, '0')}`;
    const id = `r-${month.key}-${String(i + 1).padStart(plan.idWidth, '0')}`;
    const verified = !unverified.has(i);
    const rating = verified ? ratings[i]! : rng.weighted(UNVERIFIED_RATINGS);
    return generateReview({ id, date, verified, rating, month, end: plan.end }, rng, words, facts, demo);
  });
}

type Slot = { id: string; date: string; verified: boolean; rating: number; month: Month; end: string };

const GOLDEN = (Math.sqrt(5) - 1) / 2;
const UNVERIFIED_RATINGS = [[5, 45], [4, 8], [3, 5], [2, 10], [1, 32]] as const;

/**
 * Mostly 5s with a real tail that thins out a little as the business matures. The golden-ratio
 * sequence over the review's overall position hits these shares almost exactly at any count (a
 * plain random draw over 480 reviews is off by a couple of points); shuffling within the month
 * hides the sequence.
 */
function ratingAt(index: number, progress: number): number {
  const tail = 1.25 - 0.45 * progress;
  const shares = [6 * tail, 4 * tail, 6 * tail, 16, 68];
  const total = shares.reduce((a, b) => a + b, 0);
  let u = ((index * GOLDEN + 0.5) % 1) * total;
  for (let rating = 1; rating <= 5; rating++) {
    u -= shares[rating - 1]!;
    if (u < 0) return rating;
  }
  return 5;
}

function generateReview(slot: Slot, rng: Random, words: Random, facts?: Map<string, ReviewFacts>, demo?: DemoStreams): ReviewContent {
  const { rating } = slot;
  const service = pickService(slot.month, rng);
  const tech = pickTechnician(service, rating, slot.month, rng);
  const techAliases = BUSINESS.technicians.find((t) => t.name === tech.name)!.aliases;
  const area = rng.chance(0.87) ? rng.weighted(AREAS) : undefined;
  const [low, high, step] = service.price;
  const ctx: TextContext = {
    rng: words,
    tech,
    techAliases,
    namesTech: rng.chance(NAMES_TECH[rating]!),
    service,
    area,
    price: formatDollars(Math.round(rng.int(low, high) / step) * step),
    techIntroduced: false,
    techNamed: false,
  };
  facts?.set(slot.id, { service: service.id, technician: tech.name, area });
  const { text, points } = writeReview(rating, ctx);
  const english = pickAuthor(words);
  const source = rng.weighted(SOURCES);
  // A Spanish review replaces the English words only: every draw of the English one is still made.
  const spanish =
    demo && source === 'google' && demo.spanish.chance(SPANISH_SHARE_OF_GOOGLE)
      ? { author: pickSpanishAuthor(demo.spanish), ...writeSpanishReview(rating, points, { ...ctx, rng: demo.spanish }) }
      : undefined;
  const author = spanish?.author ?? english;

  const review: ReviewContent = spanish
    ? { id: slot.id, rating, date: slot.date, text: spanish.text, language: 'es', translation: { text: spanish.translation, language: 'en', by: 'google' }, author: author.display, verified: slot.verified }
    : { id: slot.id, rating, date: slot.date, text, author: author.display, verified: slot.verified };
  const title = rng.chance(TITLE_CHANCE[source]!) ? writeTitle(rating, points, service, words) : undefined;
  // Google's reviews have no title, and Google translates none.
  if (title !== undefined && !spanish) review.title = title;
  review.source = source;
  const tagged = rng.chance(TAGS_TECH);
  if (tagged) review.technicians = [rng.chance(0.7) ? tech.name : rng.pick(techAliases)];
  if (rng.chance(TAGS_SERVICE)) review.services = [service.id];
  if (area !== undefined) review.service_area = area;
  const location = demo && placeReview(area, source, demo.locations);
  if (location) review.location = location;
  if (rng.chance(slot.verified ? REPLY_CHANCE[rating]! : rating <= 2 ? 0.6 : 0.2)) {
    const techFirstName = (spanish ? spanish.namesTech : ctx.techNamed) || tagged ? techAliases[0] : undefined;
    // The owner gives the telephone of the shop the review is of.
    const phone = location ? writePhoneOf(location) : undefined;
    const replyText = writeReply({ rating, verified: slot.verified, points, author, techFirstName, service, phone }, words);
    review.response = { text: replyText, date: addDays(slot.date, rng.weighted(REPLY_DELAY), slot.end) };
  }
  return review;
}

function seasonFactor(service: ServiceProfile, month: Month): number {
  const m = month.month;
  switch (service.season) {
    case 'cooling':
      return m >= 5 && m <= 9 ? 2 : m === 4 || m === 10 ? 0.8 : 0.25;
    case 'heating':
      return m === 12 || m <= 2 ? 2 : m === 11 || m === 3 ? 1.1 : 0.35;
    case 'shoulder':
      return m === 3 || m === 4 || m === 9 || m === 10 ? 1.8 : 0.8;
    case 'growing':
      return 0.4 + 1.4 * month.progress;
    case 'steady':
      return 1;
  }
}

function pickService(month: Month, rng: Random): ServiceProfile {
  return rng.weighted(SERVICES.map((s) => [s, s.weight * seasonFactor(s, month)] as const));
}

function pickTechnician(service: ServiceProfile, rating: number, month: Month, rng: Random): TechnicianProfile {
  const onStaff = TECHNICIANS.filter(
    (t) => t.categories.includes(service.category) && (!t.from || t.from <= month.key) && (!t.until || t.until >= month.key),
  );
  const bias = (t: TechnicianProfile) =>
    rating <= 2 ? t.lowRatingBias : rating === 3 ? Math.sqrt(t.lowRatingBias) : 1 / Math.sqrt(t.lowRatingBias);
  return rng.weighted(onStaff.map((t) => [t, t.weight * bias(t)] as const));
}

/** `date` plus `days`, never past the end date. */
export function addDays(date: string, days: number, end: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const result = d.toISOString().slice(0, 10);
  return result > end ? end : result;
}
