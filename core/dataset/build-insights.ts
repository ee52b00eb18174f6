/**
 * `/insights.json` as a value: computeInsights over the published reviews, with the content's aspect
 * set and editor files, checked against InsightsSchema before anything is written.
 */
import { formatIssue, parseWithIssues } from '../schemas/issues.ts';
import type { LoadedContent } from '../content/load-content.ts';
import type { ReviewAnalysis } from '../insights/analyze-review.ts';
import { computeInsightsWithPageText } from '../insights/compute-insights.ts';
import type { PageText } from '../insights/page-text.ts';
import { DEFAULT_LOCALE } from '../i18n/locales.ts';
import { InsightsSchema, type Insights } from '../schemas/insights.ts';
import type { ReviewsDataset } from '../schemas/published.ts';

/** `analyses`: each review's analysis by id, as publishReviews made it; without it every review is analysed here. */
export function buildInsights(content: LoadedContent, dataset: ReviewsDataset, analyses?: ReadonlyMap<string, ReviewAnalysis>): Insights {
  return buildInsightsWithPageText(content, dataset, analyses).insights;
}

/** The insights, and what the pages say of them in the site's language (business.json `locale`). */
export function buildInsightsWithPageText(content: LoadedContent, dataset: ReviewsDataset, analyses?: ReadonlyMap<string, ReviewAnalysis>): { insights: Insights; pageText: PageText } {
  const { insights, pageText } = computeInsightsWithPageText(
    {
      analyses,
      reviews: dataset.reviews,
      model: content.insights.model,
      business: dataset.business,
      editorial: content.insights.editorial,
    },
    content.business.locale ?? DEFAULT_LOCALE,
  );
  // A mismatch is a bug in core/insights, not bad content: fail the build rather than publish it.
  const checked = parseWithIssues(InsightsSchema, insights);
  if (!checked.ok) throw new Error(`/insights.json does not match its schema:\n${checked.issues.map(formatIssue).join('\n')}`);
  return { insights, pageText };
}
