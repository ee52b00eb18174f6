/**
 * The editorial summary, written from the data in plain sentences with every number from the
 * figures elsewhere in the document. An editor's text (content/insights/summary.json) replaces it;
 * the generated text stays beside it, and an editor's text older than the newest review is `stale`.
 */
import type { InsightsEditorial } from './editorial.ts';
import { MIN_TECHNICIAN_REVIEWS } from './faq.ts';
import { lowerFirst, splitRecentYear } from './figures.ts';
import { describeReplies } from './responses.ts';
import { describeEstimatedCount, pickEstimate } from './estimate-text.ts';
import { describeReviewCount, findMostComplained, MIN_VERDICT_MENTIONS, selectVerdicts } from './verdicts.ts';
import type { AspectInsight, EntityInsight, InsightsBasis, ResponseStats, Summary } from '../schemas/insights.ts';
import { formatCount, formatRating, getPercent, joinList, plural } from '../text/text-rules.ts';

const TREND_MIN_CHANGE = 15;

export type SummaryInput = {
  basis: InsightsBasis;
  aspects: readonly AspectInsight[];
  technicians: readonly EntityInsight[];
  responses: ResponseStats;
  businessName: string | null;
  editorial: InsightsEditorial;
};

type Highlight = Summary['highlights'][number];

export function computeSummary({ basis, aspects, technicians, responses, businessName, editorial }: SummaryInput): Summary {
  const highlights: Highlight[] = [];
  const sentences: string[] = [];
  const n = basis.review_count;
  const name = businessName ?? 'the business';
  if (n === 0 || basis.average_rating === null) {
    sentences.push('There are no verified reviews yet.');
  } else {
    sentences.push(
      `Based on ${plural(n, 'verified review')} from ${basis.first_date} to ${basis.last_date}, ` +
        `${name} averages ${formatRating(basis.average_rating)} out of 5.`,
    );
    const eligible = aspects.filter((a) => a.mentions >= MIN_VERDICT_MENTIONS);
    const strengths = selectVerdicts(aspects, 'strength').slice(0, 2);
    // Shares and counts from the corrected estimates where there are some (docs/insights.md).
    const describe = (a: AspectInsight, k: 'positive' | 'negative') =>
      `${lowerFirst(a.label)} (${getPercent(pickEstimate(a[k], a.estimate?.[k]), pickEstimate(a.mentions, a.estimate?.mentions))}% ${k} in ${describeEstimatedCount(a.mentions, a.estimate?.mentions, 'mention').replace(' (', ', ').replace(/\)$/, '')})`;
    if (strengths.length > 0) {
      sentences.push(`Customers praise ${joinList(strengths.map((a) => describe(a, 'positive')))}.`);
      for (const a of strengths) highlights.push(toHighlight(a, 'strength', 'positive'));
    }
    const concern = findMostComplained(aspects.map(withEstimates))?.aspect;
    if (concern !== undefined) {
      const negative = pickEstimate(concern.negative, concern.estimate?.negative);
      const mentions = pickEstimate(concern.mentions, concern.estimate?.mentions);
      sentences.push(
        `The most frequent complaint is about ${lowerFirst(concern.label)}: ${describeEstimatedCount(concern.negative, concern.estimate?.negative, 'complaint')} in ${describeEstimatedCount(concern.mentions, concern.estimate?.mentions, 'mention')}, ${getPercent(negative, mentions)}%.`,
      );
      highlights.push(toHighlight(concern, 'concern', 'negative'));
    } else if (eligible.length > 0) {
      sentences.push('No review complains about any aspect.');
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
      sentences.push(`The best-rated technician is ${best.name} (${formatRating(best.average_rating ?? 0)} over ${describeReviewCount(best.reviews)}).`);
    }
    const low = responses.bands.find((b) => b.band === '1-2');
    const replies = low === undefined ? null : describeReplies(low, '1–2 star reviews');
    if (replies !== null) sentences.push(`The owner replied to ${replies}.`);
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

/** The figures findMostComplained ranks by: the corrected counts where there are some. */
function withEstimates(aspect: AspectInsight) {
  return {
    aspect,
    mentions: pickEstimate(aspect.mentions, aspect.estimate?.mentions),
    positive: pickEstimate(aspect.positive, aspect.estimate?.positive),
    negative: pickEstimate(aspect.negative, aspect.estimate?.negative),
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
