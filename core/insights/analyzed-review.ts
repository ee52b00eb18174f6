/** A review as the insights need it, together with its analysis, computed once per review. */
import type { PublishedReview } from '../schemas/published.ts';
import type { AspectModel } from './aspect-model.ts';
import { analyzeReviewDetailed, getAnalysisText, NO_ANALYSIS, readAnalysisText } from './analyze-review.ts';
import type { Polarity } from '../schemas/aspects.ts';
import type { ReviewAnalysis } from './analyze-review.ts';
import { compareNewestFirst } from '../order.ts';
import { getQuarter } from './figures.ts';

/** The fields of a published review that insights read. */
export type InsightsReview = Pick<
  PublishedReview,
  'id' | 'rating' | 'date' | 'text' | 'title' | 'technicians' | 'services' | 'service_area'
> & { response?: PublishedReview['response']; location?: PublishedReview['location']; language?: PublishedReview['language']; translation?: PublishedReview['translation'] };

export type AnalyzedReview = {
  review: InsightsReview;
  /** The text the offsets in `analysis` refer to (title and text, or their English translation's). */
  text: string;
  /** Whether `text` is a translation, not the customer's words (never quoted). */
  translated: boolean;
  quarter: string;
  analysis: ReviewAnalysis;
  /** Review-level polarity by aspect index. */
  polarities: Map<number, Polarity>;
};

/**
 * Analyses every review once, or takes the analysis already made (by review id: the build analyses
 * each review when it publishes it); the result is sorted newest first, so output never depends on
 * input order.
 */
export function analyzeReviews(
  reviews: readonly InsightsReview[],
  model: AspectModel,
  analyses?: ReadonlyMap<string, ReviewAnalysis>,
): AnalyzedReview[] {
  const aspectIndex = new Map(model.aspects.map((a, i) => [a.id, i]));
  return [...reviews].sort(compareNewestFirst).map((review) => {
    const read = readAnalysisText(review);
    const text = read?.text ?? getAnalysisText(review);
    const analysis = read === undefined ? NO_ANALYSIS : (analyses?.get(review.id) ?? analyzeReviewDetailed(text, model, review.rating));
    const polarities = new Map<number, Polarity>();
    for (const mention of analysis.aspects) polarities.set(aspectIndex.get(mention.aspect) ?? -1, mention.polarity);
    return { review, text, translated: read?.translated ?? false, quarter: getQuarter(review.date), analysis, polarities };
  });
}
