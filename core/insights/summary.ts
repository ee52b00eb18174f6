/**
 * The editorial summary, written from the data in plain sentences with every number from the
 * figures elsewhere in the document. An editor's text (content/insights/summary.json) replaces it;
 * the generated text stays beside it, and an editor's text older than the newest review is `stale`.
 */
import type { InsightsEditorial } from './editorial.ts';
import { MIN_TECHNICIAN_REVIEWS } from './faq.ts';
import { formatCount, formatRating, getPercent, lowerFirst, splitRecentYear } from './figures.ts';
import type { AspectInsight, EntityInsight, InsightsBasis, Summary } from '../schemas/insights.ts';

const STRENGTH_SHARE = 0.6;
const CONCERN_SHARE = 0.2;
const TREND_MIN_CHANGE = 15;

export type SummaryInput = {
  basis: InsightsBasis;
  aspects: readonly AspectInsight[];
  technicians: readonly EntityInsight[];
  businessName: string | null;
  editorial: InsightsEditorial;
};

type Highlight = Summary['highlights'][number];

export function computeSummary({ basis, aspects, technicians, businessName, editorial }: SummaryInput): Summary {
  const highlights: Highlight[] = [];
  const sentences: string[] = [];
  const n = basis.review_count;
  const name = businessName ?? 'the business';
  if (n === 0 || basis.average_rating === null) {
    sentences.push('There are no verified reviews yet.');
  } else {
    sentences.push(
      `Based on ${formatCount(n)} verified ${n === 1 ? 'review' : 'reviews'} from ${basis.first_date} to ${basis.last_date}, ` +
        `${name} averages ${formatRating(basis.average_rating)} out of 5.`,
    );
    const minimum = Math.max(3, Math.ceil(n * 0.02));
    const eligible = aspects.filter((a) => a.mentions >= minimum);
    const share = (a: AspectInsight, k: 'positive' | 'negative') => a[k] / a.mentions;
    const strengths = eligible
      .filter((a) => share(a, 'positive') >= STRENGTH_SHARE)
      .sort((a, b) => share(b, 'positive') - share(a, 'positive') || b.mentions - a.mentions)
      .slice(0, 2);
    const describe = (a: AspectInsight, k: 'positive' | 'negative') =>
      `${lowerFirst(a.label)} (${getPercent(a[k], a.mentions)}% ${k} in ${formatCount(a.mentions)} mentions)`;
    if (strengths.length > 0) {
      sentences.push(`Customers praise ${strengths.map((a) => describe(a, 'positive')).join(' and ')}.`);
      for (const a of strengths) highlights.push(toHighlight(a, 'strength', 'positive'));
    }
    const concern = eligible
      .filter((a) => !strengths.includes(a) && share(a, 'negative') >= CONCERN_SHARE)
      .sort((a, b) => share(b, 'negative') - share(a, 'negative') || b.mentions - a.mentions)[0];
    if (concern !== undefined) {
      sentences.push(`The most frequent complaint is about ${describe(concern, 'negative')}.`);
      highlights.push(toHighlight(concern, 'concern', 'negative'));
    } else if (eligible.length > 0) {
      sentences.push(`No aspect draws frequent complaints: none is negative in ${CONCERN_SHARE * 100}% of its mentions or more.`);
    }
    const trend = findLargestTrend(eligible);
    if (trend !== undefined) {
      const { aspect, recent, before } = trend;
      sentences.push(
        `${aspect.label} has ${recent > before ? 'improved' : 'declined'}: a net score of ${recent} over the last four quarters against ${before} before.`,
      );
      highlights.push(toHighlight(aspect, 'trend', recent > before ? 'positive' : 'negative'));
    }
    const best = technicians
      .filter((t) => t.reviews >= MIN_TECHNICIAN_REVIEWS && t.average_rating !== null)
      .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || b.reviews - a.reviews)[0];
    if (best !== undefined) {
      sentences.push(`The best-rated technician is ${best.name} (${formatRating(best.average_rating ?? 0)} over ${formatCount(best.reviews)} reviews).`);
    }
  }
  const generated = sentences.join(' ');
  const editorText = editorial.summary.text;
  const asOf = editorial.summary.as_of ?? null;
  return {
    text: editorText ?? generated,
    source: editorText === undefined ? 'data' : 'editor',
    generated_text: generated,
    basis,
    editor_as_of: editorText === undefined ? null : asOf,
    stale: editorText !== undefined && basis.last_date !== null && (asOf === null || asOf < basis.last_date),
    highlights,
  };
}

function findLargestTrend(eligible: readonly AspectInsight[]): { aspect: AspectInsight; recent: number; before: number } | undefined {
  let found: { aspect: AspectInsight; recent: number; before: number } | undefined;
  for (const aspect of eligible) {
    const { recent, before } = splitRecentYear(aspect.trend);
    if (recent.mentions < 5 || before.mentions < 5) continue;
    const net = (c: typeof recent) => Math.round((100 * (c.positive - c.negative)) / c.mentions);
    const change = net(recent) - net(before);
    if (Math.abs(change) < TREND_MIN_CHANGE) continue;
    if (found === undefined || Math.abs(change) > Math.abs(found.recent - found.before)) {
      found = { aspect, recent: net(recent), before: net(before) };
    }
  }
  return found;
}

function toHighlight(aspect: AspectInsight, kind: Highlight['kind'], polarity: 'positive' | 'negative'): Highlight {
  const { mentions, positive, neutral, negative, net_score } = aspect;
  return {
    aspect: aspect.id,
    kind,
    mentions,
    positive,
    neutral,
    negative,
    net_score,
    review_ids: aspect.quotes.filter((q) => q.polarity === polarity).map((q) => q.review_id),
  };
}
