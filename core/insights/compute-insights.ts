/**
 * Builds the whole /insights.json document from the published reviews. Pure and deterministic: no
 * clock, no randomness, reviews processed newest first whatever their input order, and every list
 * sorted with a tie-breaker, so the same reviews give a deep-equal (and byte-equal) result.
 */
import type { ReviewAnalysis } from './analyze-review.ts';
import type { AspectModel } from './aspect-model.ts';
import { analyzeReviews } from './analyzed-review.ts';
import type { InsightsReview } from './analyzed-review.ts';
import { computeAspectInsights } from './aspect-insights.ts';
import { createCountCorrector, DEFAULT_ASPECT_ACCURACY } from './aspect-accuracy.ts';
import type { AspectAccuracyTable } from './aspect-accuracy.ts';
import { EMPTY_EDITORIAL } from './editorial.ts';
import type { InsightsEditorial } from './editorial.ts';
import { computeEntityInsights } from './entity-insights.ts';
import type { BusinessEntities } from './entity-insights.ts';
import { computeFaq } from './faq.ts';
import { computeMean, listQuarters } from './figures.ts';
import type { Insights, InsightsBasis } from '../schemas/insights.ts';
import { isUnreadable } from './read-as-english.ts';
import { computeResponses } from './responses.ts';
import { computeSummary } from './summary.ts';
import { computeTopics } from './topics.ts';
import { localizeAspect } from './aspect-model.ts';
import type { PageText } from './page-text.ts';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locales.ts';
import { createTranslator } from '../i18n/translator.ts';

export type InsightsInput = {
  reviews: readonly InsightsReview[];
  model: AspectModel;
  /** The business: its name for the texts, and its services, technicians and areas as entities. */
  business?: BusinessEntities & { name: string };
  editorial?: InsightsEditorial;
  /** Each review's analysis by id, when the caller has already analysed them (the build does, once). */
  analyses?: ReadonlyMap<string, ReviewAnalysis>;
  /** The analyser's measured error per aspect, that counts are corrected with (the shipped table by default). */
  accuracy?: AspectAccuracyTable;
};

export function computeInsights(input: InsightsInput): Insights {
  return computeInsightsWithPageText(input, DEFAULT_LOCALE).insights;
}

/**
 * The insights, and what the pages say of them in `locale` (core/insights/page-text.ts): the summary and
 * the FAQ written again from the same figures, with the aspects' labels and questions in that language.
 */
export function computeInsightsWithPageText(
  { reviews, model, business, editorial = EMPTY_EDITORIAL, analyses, accuracy = DEFAULT_ASPECT_ACCURACY }: InsightsInput,
  locale: Locale,
): { insights: Insights; pageText: PageText } {
  const analyzed = analyzeReviews(reviews, model, analyses);
  const corrector = createCountCorrector(accuracy);
  const newest = analyzed[0]?.review.date ?? null;
  const oldest = analyzed.at(-1)?.review.date ?? null;
  const basis: InsightsBasis = {
    review_count: analyzed.length,
    first_date: oldest,
    last_date: newest,
    average_rating: computeMean(analyzed.reduce((sum, r) => sum + r.review.rating, 0), analyzed.length),
  };
  // Counted only when there are some, so an English business's insights are what they were.
  // What the analyser read: the aspects, their estimates and the topics are of these, not of the unread.
  const read = analyzed.filter((r) => !isUnreadable(r.review));
  const unread = analyzed.length - read.length;
  if (unread > 0) basis.unread = unread;
  const quarters = listQuarters(oldest, newest);
  const aspects = computeAspectInsights(read, model, quarters, corrector);
  const entities = computeEntityInsights(analyzed, model, quarters, business, corrector);
  // The business's and technicians' names are not topics ("called riverbend", "mike was").
  const names = [
    ...(business === undefined ? [] : [business.name]),
    ...entities.technicians.map((t) => t.name),
    ...(business?.technicians ?? []).flatMap((t) => t.aliases ?? []),
  ];
  const topics = computeTopics(read, model, names);
  const businessName = business?.name ?? null;
  const faq = computeFaq({ analyzed, model, basis, aspects, entities, businessName, editorial });
  const responses = computeResponses(reviews);
  const summary = computeSummary({ basis, aspects, technicians: entities.technicians, responses, businessName, editorial });
  // The jobs' figures come from the review log, which the build appends after the insights (scripts/build.ts).
  const insights: Insights = { basis, aspects, entities, topics, faq, responses, summary, jobs: null };

  const t = createTranslator(locale);
  const localized = model.aspects.map((aspect) => localizeAspect(aspect, locale));
  const pageAspects = aspects.map((aspect, i) => ({ ...aspect, label: localized[i]!.label, description: localized[i]!.description }));
  const pageModel = { ...model, aspects: model.aspects.map((aspect, i) => ({ ...aspect, ...localized[i]! })) };
  const pageText: PageText = {
    locale,
    aspects: localized.map(({ id, label, description }) => ({ id, label, description })),
    summary: computeSummary({ basis, aspects: pageAspects, technicians: entities.technicians, responses, businessName, editorial, t }).text,
    faq: computeFaq({ analyzed, model: pageModel, basis, aspects: pageAspects, entities, businessName, editorial, t }),
  };
  return { insights, pageText };
}
