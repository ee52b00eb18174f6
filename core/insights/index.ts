export { parseAspectModel, compileAspectModel } from './aspect-model.ts';
export type { AspectModel, AspectInfo, ConfigIssue, ParseAspectModelResult } from './aspect-model.ts';
export {
  analyzeReview,
  analyzeReviewDetailed,
  getAnalysisText,
  POLARITY_THRESHOLD,
} from './analyze-review.ts';
export type { ReviewAnalysis } from './analyze-review.ts';
export { computeInsights } from './compute-insights.ts';
export type { InsightsInput } from './compute-insights.ts';
export type { InsightsReview } from './analyzed-review.ts';
export type { BusinessEntities } from './entity-insights.ts';
export {
  EditorFaqFileSchema,
  EditorSummaryFileSchema,
  EMPTY_EDITORIAL,
  parseInsightsEditorial,
  checkEditorialReviewIds,
} from './editorial.ts';
export type { InsightsEditorial } from './editorial.ts';
export { readInsightsContent } from './insights-content-fs.ts';
export type { InsightsContent, ReadInsightsContentResult } from './insights-content-fs.ts';
export { evaluateModel, EvalSetSchema } from './evaluate.ts';
export type { EvalReport, EvalSentence } from './evaluate.ts';
