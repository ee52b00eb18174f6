export { parseAspectModel, compileAspectModel } from './aspect-model.ts';
export type { AspectModel, AspectInfo, ConfigIssue, ParseAspectModelResult } from './aspect-model.ts';
export { AspectConfigSchema, AspectDefinitionSchema } from './aspect-config-schema.ts';
export type { AspectConfig, AspectConfigInput } from './aspect-config-schema.ts';
export {
  analyzeReview,
  analyzeReviewDetailed,
  getAnalysisText,
  PolaritySchema,
  ReviewAspectSchema,
  POLARITY_THRESHOLD,
} from './analyze-review.ts';
export type { Polarity, ReviewAspect, ReviewAnalysis } from './analyze-review.ts';
export { computeInsights } from './compute-insights.ts';
export type { InsightsInput } from './compute-insights.ts';
export type { InsightsReview } from './analyzed-review.ts';
export type { BusinessEntities } from './entity-insights.ts';
export {
  InsightsSchema,
  AspectInsightSchema,
  EntityInsightSchema,
  TopicSchema,
  FaqEntrySchema,
  SummarySchema,
} from './insights-schema.ts';
export type { Insights, AspectInsight, EntityInsight, Topic, FaqEntry, Summary } from './insights-schema.ts';
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
