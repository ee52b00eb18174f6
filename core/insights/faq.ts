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
import { getPercent } from '../text/text-rules.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

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
  /** The language the answers are written in: English for /insights.json (core/insights/page-text.ts). */
  t?: Translator;
};

export function computeFaq(raw: FaqInput): FaqEntry[] {
  const input: Required<FaqInput> = { ...raw, t: raw.t ?? createTranslator() };
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

function answerOverall({ analyzed, basis, businessName, t }: Required<FaqInput>): FaqEntry {
  const words = t.m.insights.faq;
  const n = basis.review_count;
  const five = analyzed.filter((r) => r.review.rating === 5).length;
  const low = analyzed.filter((r) => r.review.rating <= 2).length;
  const answer =
    n === 0 || basis.average_rating === null
      ? t.m.insights.summary.noReviews
      : t.plural(words.overall, n, { rating: t.rating(basis.average_rating), five: t.percent(getPercent(five, n)), low: t.percent(getPercent(low, n)), date: basis.last_date! });
  return {
    id: 'overall-rating',
    question: t.fill(words.overallQuestion, { name: businessName ?? words.thisBusiness }),
    answer,
    source: 'data',
    aspect: null,
    figures: { review_count: n, average_rating: basis.average_rating ?? 0, five_star: five, one_or_two_star: low },
    review_ids: analyzed.slice(0, 5).map((r) => r.review.id),
  };
}

function answerAspect(input: Required<FaqInput>, aspect: AspectInsight, question: string, index: number): FaqEntry {
  const { t } = input;
  const words = t.m.insights.faq;
  // Of the reviews the analyser read: one it could not read may speak of the aspect in words it cannot tell.
  const n = input.basis.review_count - (input.basis.unread ?? 0);
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
    answer = t.fill(words.aspectNone, { total: t.count(n), aspect: label });
  } else if (estimate !== null) {
    // The corrected counts lead; the analyser's own counts follow, so both can be checked.
    const about = (part: 'positive' | 'negative') =>
      t.fill(part === 'positive' ? words.aboutPositive : words.aboutNegative, { count: t.count(estimate[part].value), range: describeRange(estimate[part], t) });
    answer = t.fill(words.aspectEstimated, {
      count: t.count(estimate.mentions.value),
      total: t.count(n),
      aspect: label,
      range: describeRange(estimate.mentions, t),
      positive: about('positive'),
      negative: about('negative'),
      mentions: t.count(mentions),
      foundPositive: t.count(positive),
      foundNegative: t.count(negative),
    });
  } else {
    answer = t.fill(words.aspectCounted, {
      mentions: t.count(mentions),
      total: t.count(n),
      aspect: label,
      positive: t.count(positive),
      positivePercent: t.percent(getPercent(positive, mentions)),
      negative: t.count(negative),
      negativePercent: t.percent(getPercent(negative, mentions)),
      neutral: t.count(neutral),
    });
  }
  if (mentions > 0) {
    const { recent, before } = splitRecentYear(aspect.trend);
    if (recent.mentions >= 3 && before.mentions >= 3) {
      figures.recent_positive_percent = getPercent(recent.positive, recent.mentions);
      figures.earlier_positive_percent = getPercent(before.positive, before.mentions);
      answer += t.fill(words.aspectTrend, { recent: t.percent(figures.recent_positive_percent), earlier: t.percent(figures.earlier_positive_percent) });
    }
    const wanted = pickEstimate(positive, estimate?.positive) >= pickEstimate(negative, estimate?.negative) ? 'positive' : 'negative';
    const quote = aspect.quotes.find((q) => q.polarity === wanted);
    if (quote !== undefined) answer += t.fill(words.quote, { quote: quote.text, reference: t.m.insights.reviewReference, id: quote.review_id });
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

function answerWhoToAskFor({ entities, model, t }: Required<FaqInput>): FaqEntry | null {
  if (entities.technicians.length === 0) return null;
  const words = t.m.insights.faq;
  const ranked = entities.technicians
    .filter((t) => t.reviews >= MIN_TECHNICIAN_REVIEWS && t.average_rating !== null)
    .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || b.reviews - a.reviews);
  const [best, ...others] = ranked;
  if (best === undefined) {
    return {
      id: 'who-to-ask-for',
      question: words.whoQuestion,
      answer: t.fill(words.whoNone, { min: MIN_TECHNICIAN_REVIEWS }),
      source: 'data',
      aspect: null,
      figures: {},
      review_ids: [],
    };
  }
  const labels = new Map(model.aspects.map((a) => [a.id, lowerFirst(a.label)]));
  const praise = best.strengths.slice(0, 2).map((s) => labels.get(s) ?? s);
  let answer = t.fill(words.whoBest, { name: best.name, rating: t.rating(best.average_rating ?? 0), reviews: describeReviewCount(best.reviews, t) });
  answer += praise.length > 0 ? t.fill(words.whoPraise, { list: t.list(praise) }) : '.';
  const runnersUp = others.slice(0, 2).map((r) => t.fill(words.whoRunnerUp, { name: r.name, rating: t.rating(r.average_rating ?? 0), count: t.count(r.reviews) }));
  if (runnersUp.length > 0) answer += t.fill(words.whoNext, { list: runnersUp.join(', ') });
  answer += t.fill(words.whoUnranked, { min: MIN_TECHNICIAN_REVIEWS });
  return {
    id: 'who-to-ask-for',
    question: words.whoQuestion,
    answer,
    source: 'data',
    aspect: null,
    figures: { average_rating: best.average_rating ?? 0, reviews: best.reviews, ranked_technicians: ranked.length },
    review_ids: best.recent_review_ids,
  };
}

function answerServices({ entities, t }: Required<FaqInput>): FaqEntry | null {
  const words = t.m.insights.faq;
  const reviewed = entities.services.filter((s) => s.reviews > 0);
  if (reviewed.length === 0) return null;
  const top = reviewed.slice(0, 3);
  const list = top.map((s) => t.fill(words.serviceItem, { name: s.name, reviews: t.plural(t.m.units.review, s.reviews), rating: t.rating(s.average_rating ?? 0) }));
  return {
    id: 'services',
    question: words.servicesQuestion,
    answer: t.plural(words.services, reviewed.length, { list: t.list(list) }),
    source: 'data',
    aspect: null,
    figures: Object.fromEntries(top.map((s) => [s.id ?? s.name, s.reviews])),
    review_ids: top.flatMap((s) => s.recent_review_ids.slice(0, 2)),
  };
}

function answerAreas({ entities, analyzed, t }: Required<FaqInput>): FaqEntry | null {
  const words = t.m.insights.faq;
  const areas = entities.service_areas;
  if (areas.length === 0) return null;
  const reviewed = areas.filter((a) => a.reviews > 0);
  // An area count is news only when most reviews name an area; imports usually set none.
  const withArea = analyzed.filter((r) => r.review.service_area !== null).length;
  if (withArea * 2 <= analyzed.length) return null;
  const top = reviewed.slice(0, 3).map((a) => t.fill(words.areaItem, { name: a.name, count: t.count(a.reviews) }));
  let answer = t.plural(words.areas, areas.length, { list: t.list(areas.map((a) => a.name)) });
  if (top.length > 0) answer += t.fill(words.areasMost, { list: t.list(top) });
  return {
    id: 'service-areas',
    question: words.areasQuestion,
    answer,
    source: 'data',
    aspect: null,
    figures: Object.fromEntries(reviewed.slice(0, 3).map((a) => [a.name, a.reviews])),
    review_ids: reviewed.slice(0, 3).flatMap((a) => a.recent_review_ids.slice(0, 2)),
  };
}

function answerRecentTrend({ analyzed, t }: Required<FaqInput>): FaqEntry | null {
  const words = t.m.insights.faq;
  const quarters = [...new Set(analyzed.map((r) => r.quarter))].sort();
  if (quarters.length < 5) return null;
  const recentQuarters = new Set(quarters.slice(-4));
  const recent = analyzed.filter((r) => recentQuarters.has(r.quarter));
  const earlier = analyzed.filter((r) => !recentQuarters.has(r.quarter));
  const mean = (list: readonly AnalyzedReview[]) => list.reduce((s, r) => s + r.review.rating, 0) / list.length;
  const recentMean = Math.round(mean(recent) * 100) / 100;
  const earlierMean = Math.round(mean(earlier) * 100) / 100;
  const direction = recentMean > earlierMean ? words.higher : recentMean < earlierMean ? words.lower : words.same;
  return {
    id: 'recent-trend',
    question: words.trendQuestion,
    answer: t.fill(words.trend, {
      recent: t.count(recent.length),
      from: quarters.at(-4)!,
      to: quarters.at(-1)!,
      recentAverage: t.rating(recentMean),
      direction,
      earlierAverage: t.rating(earlierMean),
      earlier: t.count(earlier.length),
    }),
    source: 'data',
    aspect: null,
    figures: { recent_reviews: recent.length, recent_average: recentMean, earlier_reviews: earlier.length, earlier_average: earlierMean },
    review_ids: recent.slice(0, 5).map((r) => r.review.id),
  };
}

