/**
 * The FAQ: questions customers of a home-services business ask, each answered from the reviews with
 * its numbers (`figures`) and the reviews behind it, then the editor's own entries
 * (content/insights/faq.json), which may replace or hide generated ones.
 */
import type { AnalyzedReview } from './analyzed-review.ts';
import type { InsightsEditorial } from './editorial.ts';
import { lowerFirst, splitRecentYear } from './figures.ts';
import type { AspectModel } from './aspect-model.ts';
import { describeReviewCount } from './verdicts.ts';
import { describeRange, pickEstimate } from './estimate-text.ts';
import type { AspectInsight, EntityInsight, FaqEntry, InsightsBasis } from '../schemas/insights.ts';
import { formatCount, formatRating, getPercent, joinList, plural } from '../text/text-rules.ts';

/** Technicians with fewer reviews are not ranked; those under SMALL_SAMPLE are ranked with "only n reviews". */
export const MIN_TECHNICIAN_REVIEWS = 3;

export type FaqInput = {
  analyzed: readonly AnalyzedReview[];
  model: AspectModel;
  basis: InsightsBasis;
  aspects: readonly AspectInsight[];
  entities: { technicians: readonly EntityInsight[]; services: readonly EntityInsight[]; service_areas: readonly EntityInsight[] };
  businessName: string | null;
  editorial: InsightsEditorial;
};

export function computeFaq(input: FaqInput): FaqEntry[] {
  const generated = [
    answerOverall(input),
    ...input.aspects.flatMap((aspect, i) => {
      const question = input.model.aspects[i]?.question;
      return question ? [answerAspect(input, aspect, question, i)] : [];
    }),
    answerWhoToAskFor(input),
    answerServices(input),
    answerAreas(input),
    answerRecentTrend(input),
  ].filter((entry): entry is FaqEntry => entry !== null);

  const { entries, hide } = input.editorial.faq;
  const replacements = new Map(entries.filter((e) => e.id !== undefined).map((e) => [e.id, e]));
  const fromEditor = (e: (typeof entries)[number], index: number): FaqEntry => ({
    id: e.id ?? `editor-${index + 1}`,
    question: e.question,
    answer: e.answer,
    source: 'editor',
    aspect: null,
    figures: {},
    review_ids: e.review_ids,
  });
  const result = generated
    .filter((g) => !hide.includes(g.id))
    .map((g) => {
      const replacement = replacements.get(g.id);
      return replacement === undefined ? g : fromEditor(replacement, entries.indexOf(replacement));
    });
  const generatedIds = new Set(generated.map((g) => g.id));
  entries.forEach((e, i) => {
    if (e.id === undefined || !generatedIds.has(e.id)) result.push(fromEditor(e, i));
  });
  return result;
}

function answerOverall({ analyzed, basis, businessName }: FaqInput): FaqEntry {
  const n = basis.review_count;
  const five = analyzed.filter((r) => r.review.rating === 5).length;
  const low = analyzed.filter((r) => r.review.rating <= 2).length;
  const answer =
    n === 0 || basis.average_rating === null
      ? 'There are no verified reviews yet.'
      : `${plural(n, 'verified review gives', { many: 'verified reviews give' })} an average of ${formatRating(basis.average_rating)} out of 5: ` +
        `${getPercent(five, n)}% give five stars and ${getPercent(low, n)}% one or two. The newest is from ${basis.last_date}.`;
  return {
    id: 'overall-rating',
    question: `How do customers rate ${businessName ?? 'this business'}?`,
    answer,
    source: 'data',
    aspect: null,
    figures: { review_count: n, average_rating: basis.average_rating ?? 0, five_star: five, one_or_two_star: low },
    review_ids: analyzed.slice(0, 5).map((r) => r.review.id),
  };
}

function answerAspect(input: FaqInput, aspect: AspectInsight, question: string, index: number): FaqEntry {
  const n = input.basis.review_count;
  const label = lowerFirst(aspect.label);
  const { mentions, positive, negative, neutral } = aspect;
  const figures: Record<string, number> = { mentions, positive, neutral, negative, net_score: aspect.net_score ?? 0 };
  let answer: string;
  const estimate = aspect.estimate;
  if (estimate !== null) {
    for (const part of ['mentions', 'positive', 'negative'] as const) {
      figures[`estimated_${part}`] = estimate[part].value;
      figures[`estimated_${part}_low`] = estimate[part].low;
      figures[`estimated_${part}_high`] = estimate[part].high;
    }
  }
  if (mentions === 0 && (estimate === null || estimate.mentions.high === 0)) {
    answer = `None of the ${formatCount(n)} reviews mentions ${label} yet.`;
  } else if (estimate !== null) {
    // The corrected counts lead; the analyser's own counts follow, so both can be checked.
    const about = (part: 'positive' | 'negative') => `about ${formatCount(estimate[part].value)} ${part} (${describeRange(estimate[part])})`;
    answer =
      `About ${formatCount(estimate.mentions.value)} of ${formatCount(n)} reviews mention ${label} (${describeRange(estimate.mentions)}): ` +
      `${about('positive')} and ${about('negative')}, counting what the analyser misses and wrongly flags; ` +
      `it found ${formatCount(mentions)}, of them ${formatCount(positive)} positive and ${formatCount(negative)} negative.`;
  } else {
    answer =
      `${formatCount(mentions)} of ${formatCount(n)} reviews mention ${label}: ${formatCount(positive)} positive (${getPercent(positive, mentions)}%), ` +
      `${formatCount(negative)} negative (${getPercent(negative, mentions)}%) and ${formatCount(neutral)} neutral.`;
  }
  if (mentions > 0) {
    const { recent, before } = splitRecentYear(aspect.trend);
    if (recent.mentions >= 3 && before.mentions >= 3) {
      figures.recent_positive_percent = getPercent(recent.positive, recent.mentions);
      figures.earlier_positive_percent = getPercent(before.positive, before.mentions);
      answer += ` In the last four quarters ${figures.recent_positive_percent}% of mentions were positive, against ${figures.earlier_positive_percent}% before.`;
    }
    const wanted = pickEstimate(positive, estimate?.positive) >= pickEstimate(negative, estimate?.negative) ? 'positive' : 'negative';
    const quote = aspect.quotes.find((q) => q.polarity === wanted);
    if (quote !== undefined) answer += ` A customer wrote: “${quote.text}” (review ${quote.review_id}).`;
  }
  const recentIds = input.analyzed.filter((r) => r.polarities.has(index)).slice(0, 5).map((r) => r.review.id);
  return {
    id: `aspect-${aspect.id}`,
    question,
    answer,
    source: 'data',
    aspect: aspect.id,
    figures,
    review_ids: [...new Set([...aspect.quotes.map((q) => q.review_id), ...recentIds])],
  };
}

function answerWhoToAskFor({ entities, model }: FaqInput): FaqEntry | null {
  if (entities.technicians.length === 0) return null;
  const ranked = entities.technicians
    .filter((t) => t.reviews >= MIN_TECHNICIAN_REVIEWS && t.average_rating !== null)
    .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || b.reviews - a.reviews);
  const [best, ...others] = ranked;
  if (best === undefined) {
    return {
      id: 'who-to-ask-for',
      question: 'Which technician should I ask for?',
      answer: `No technician has ${MIN_TECHNICIAN_REVIEWS} or more reviews yet, too few to compare.`,
      source: 'data',
      aspect: null,
      figures: {},
      review_ids: [],
    };
  }
  const labels = new Map(model.aspects.map((a) => [a.id, lowerFirst(a.label)]));
  const praise = best.strengths.slice(0, 2).map((s) => labels.get(s) ?? s);
  let answer = `${best.name} has the best record: ${formatRating(best.average_rating ?? 0)} out of 5 over ${describeReviewCount(best.reviews)}`;
  answer += praise.length > 0 ? `, praised most for ${joinList(praise)}.` : '.';
  const runnersUp = others.slice(0, 2).map((t) => `${t.name} (${formatRating(t.average_rating ?? 0)} over ${formatCount(t.reviews)})`);
  if (runnersUp.length > 0) answer += ` Next: ${runnersUp.join(', ')}.`;
  answer += ` Technicians with fewer than ${MIN_TECHNICIAN_REVIEWS} reviews are not ranked.`;
  return {
    id: 'who-to-ask-for',
    question: 'Which technician should I ask for?',
    answer,
    source: 'data',
    aspect: null,
    figures: { average_rating: best.average_rating ?? 0, reviews: best.reviews, ranked_technicians: ranked.length },
    review_ids: best.recent_review_ids,
  };
}

function answerServices({ entities }: FaqInput): FaqEntry | null {
  const reviewed = entities.services.filter((s) => s.reviews > 0);
  if (reviewed.length === 0) return null;
  const top = reviewed.slice(0, 3);
  const list = top.map((s) => `${s.name} (${plural(s.reviews, 'review')}, ${formatRating(s.average_rating ?? 0)} average)`);
  return {
    id: 'services',
    question: 'Which services do customers review most?',
    answer: `${plural(reviewed.length, 'service has', { many: 'services have' })} reviews; the most reviewed are ${joinList(list)}.`,
    source: 'data',
    aspect: null,
    figures: Object.fromEntries(top.map((s) => [s.id ?? s.name, s.reviews])),
    review_ids: top.flatMap((s) => s.recent_review_ids.slice(0, 2)),
  };
}

function answerAreas({ entities, analyzed }: FaqInput): FaqEntry | null {
  const areas = entities.service_areas;
  if (areas.length === 0) return null;
  const reviewed = areas.filter((a) => a.reviews > 0);
  // An area count is news only when most reviews name an area; imports usually set none.
  const withArea = analyzed.filter((r) => r.review.service_area !== null).length;
  if (withArea * 2 <= analyzed.length) return null;
  const top = reviewed.slice(0, 3).map((a) => `${a.name} (${formatCount(a.reviews)})`);
  let answer = `They list ${plural(areas.length, 'area')}: ${joinList(areas.map((a) => a.name))}.`;
  if (top.length > 0) answer += ` Most reviews come from ${joinList(top)}.`;
  return {
    id: 'service-areas',
    question: 'Which areas do they serve?',
    answer,
    source: 'data',
    aspect: null,
    figures: Object.fromEntries(reviewed.slice(0, 3).map((a) => [a.name, a.reviews])),
    review_ids: reviewed.slice(0, 3).flatMap((a) => a.recent_review_ids.slice(0, 2)),
  };
}

function answerRecentTrend({ analyzed }: FaqInput): FaqEntry | null {
  const quarters = [...new Set(analyzed.map((r) => r.quarter))].sort();
  if (quarters.length < 5) return null;
  const recentQuarters = new Set(quarters.slice(-4));
  const recent = analyzed.filter((r) => recentQuarters.has(r.quarter));
  const earlier = analyzed.filter((r) => !recentQuarters.has(r.quarter));
  const mean = (list: readonly AnalyzedReview[]) => list.reduce((s, r) => s + r.review.rating, 0) / list.length;
  const recentMean = Math.round(mean(recent) * 100) / 100;
  const earlierMean = Math.round(mean(earlier) * 100) / 100;
  const direction = recentMean > earlierMean ? 'higher than' : recentMean < earlierMean ? 'lower than' : 'the same as';
  return {
    id: 'recent-trend',
    question: 'Have reviews got better or worse lately?',
    answer:
      `The ${formatCount(recent.length)} reviews of the last four quarters with reviews (${quarters.at(-4)} to ${quarters.at(-1)}) average ` +
      `${formatRating(recentMean)}, ${direction} the ${formatRating(earlierMean)} of the ${formatCount(earlier.length)} earlier reviews.`,
    source: 'data',
    aspect: null,
    figures: { recent_reviews: recent.length, recent_average: recentMean, earlier_reviews: earlier.length, earlier_average: earlierMean },
    review_ids: recent.slice(0, 5).map((r) => r.review.id),
  };
}

