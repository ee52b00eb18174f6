/**
 * `/insights.json` as a value: computeInsights over the published reviews, with the content's aspect
 * set and editor files, checked against InsightsSchema before anything is written.
 */
import { formatIssue, parseWithIssues } from '../schemas/issues.ts';
import type { LoadedContent } from '../content/load-content.ts';
import type { ReviewAnalysis } from '../insights/analyze-review.ts';
import { computeInsights } from '../insights/compute-insights.ts';
import { InsightsSchema, type Insights } from '../schemas/insights.ts';
import type { ReviewsDataset } from '../schemas/published.ts';

/** `analyses`: each review's analysis by id, as publishReviews made it; without it every review is analysed here. */
export function buildInsights(content: LoadedContent, dataset: ReviewsDataset, analyses?: ReadonlyMap<string, ReviewAnalysis>): Insights {
  const insights = computeInsights({
    analyses,
    reviews: dataset.reviews,
    model: content.insights.model,
    business: dataset.business,
    editorial: content.insights.editorial,
  });
  // A mismatch is a bug in core/insights, not bad content: fail the build rather than publish it.
  const checked = parseWithIssues(InsightsSchema, insights);
  if (!checked.ok) throw new Error(`/insights.json does not match its schema:\n${checked.issues.map(formatIssue).join('\n')}`);
  return insights;
}
