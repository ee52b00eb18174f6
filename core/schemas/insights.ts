/**
 * The shape of /insights.json. Every count is a count of reviews, and each review's `aspects` field
 * holds the polarity counted here, so any figure can be recomputed from /reviews.json; `filter`
 * objects are /api/reviews/search parameters that list the reviews behind a figure.
 */
import { JobFiguresSchema } from '../log/job-summary.ts';
import { z } from 'zod';
import { IsoDateSchema } from './content.ts';
import { PolaritySchema } from './aspects.ts';

const CountSchema = z.int().min(0);

export const SearchFilterSchema = z
  .record(z.string(), z.string())
  .meta({ description: 'Parameters of /api/reviews/search that list the reviews behind these figures.' });

const statsShape = {
  mentions: CountSchema.meta({ description: 'Reviews that mention the aspect.' }),
  positive: CountSchema.meta({ description: 'Of those, reviews whose opinion of the aspect is positive.' }),
  neutral: CountSchema,
  negative: CountSchema,
  net_score: z
    .int()
    .min(-100)
    .max(100)
    .nullable()
    .meta({ description: '100 × (positive − negative) / mentions, rounded; null without mentions.' }),
};
export const AspectStatsSchema = z.object(statsShape);

const CountRangeSchema = z
  .object({
    value: CountSchema.meta({ description: 'The estimated true number of reviews, rounded.' }),
    low: CountSchema.meta({ description: 'Low end of the 95% range.' }),
    high: CountSchema.meta({ description: 'High end of the 95% range.' }),
  })
  .meta({ id: 'CountRange' });

export const CountEstimateSchema = z
  .object({
    mentions: CountRangeSchema,
    positive: CountRangeSchema,
    negative: CountRangeSchema,
  })
  .nullable()
  .meta({
    id: 'CountEstimate',
    description:
      'The counts corrected for the analyser\'s measured error (adjusted classify-and-count) with a 95% bootstrap range; null for fewer than 20 reviews, or for an aspect without measured accuracy. See docs/insights.md.',
  });

const rate = z.number().min(0).max(1).nullable();
export const AspectAccuracySchema = z
  .object({
    detection: z.object({
      recall: rate.meta({ description: 'Share of labelled reviews that judge the aspect in which the analyser finds it.' }),
      false_alarm_rate: rate.meta({ description: 'Share of labelled reviews that do not judge it in which the analyser finds it.' }),
      n: CountSchema.meta({ description: 'Labelled reviews measured.' }),
      mentions: CountSchema.meta({ description: 'Of those, reviews labelled as judging the aspect.' }),
    }),
    polarity: z.object({
      accuracy: rate.meta({ description: 'Share of found mentions given the labelled polarity.' }),
      n: CountSchema.meta({ description: 'Found mentions measured.' }),
    }),
  })
  .nullable()
  .meta({ id: 'AspectAccuracy', description: 'The analyser\'s accuracy for this aspect, measured on the labelled review corpus (its dev split, and its train split cross-fitted); null for an aspect added by the owner.' });

export const QuarterSchema = z
  .string()
  .regex(/^\d{4}-Q[1-4]$/)
  .meta({ description: 'Calendar quarter, e.g. `2025-Q2`.', example: '2025-Q2' });

export const AspectTrendPointSchema = z.object({
  quarter: QuarterSchema,
  ...statsShape,
  reviews: CountSchema.meta({ description: 'Reviews in the quarter that the analysis read (`basis.unread` are left out).' }),
  estimate: CountEstimateSchema,
});

export const QuoteSchema = z
  .object({
    review_id: z.string(),
    date: IsoDateSchema,
    rating: z.int().min(1).max(5),
    polarity: PolaritySchema,
    text: z.string().meta({ description: 'The sentence of the review that carries the opinion.' }),
  })
  .meta({ id: 'InsightQuote' });

export const AspectInsightSchema = z
  .object({
    id: z.string().meta({ description: 'Aspect id, as in a review\'s `aspects[].aspect`.' }),
    label: z.string(),
    description: z.string().nullable(),
    ...statsShape,
    estimate: CountEstimateSchema,
    accuracy: AspectAccuracySchema,
    share_of_reviews: z.number().min(0).max(1).meta({ description: 'mentions / the reviews the analysis read, 4 decimals.' }),
    trend: z.array(AspectTrendPointSchema).meta({ description: 'Per quarter, from the first review to the last.' }),
    quotes: z.array(QuoteSchema).meta({ description: 'Representative sentences: strongest positive, then negative.' }),
    filter: SearchFilterSchema,
  })
  .meta({ id: 'AspectInsight' });

export const EntityAspectSchema = z.object({ aspect: z.string(), ...statsShape, estimate: CountEstimateSchema });

export const EntityTrendPointSchema = z.object({
  quarter: QuarterSchema,
  reviews: CountSchema,
  average_rating: z.number().nullable().meta({ description: 'Mean rating in the quarter, 2 decimals; null without reviews.' }),
});

export const EntityInsightSchema = z
  .object({
    name: z.string(),
    id: z.string().nullable().meta({ description: 'Service id for services, location id for locations; null for technicians and areas.' }),
    reviews: CountSchema.meta({ description: 'Reviews that mention this technician, service or area.' }),
    average_rating: z.number().nullable().meta({ description: 'Mean rating of those reviews, 2 decimals.' }),
    first_date: IsoDateSchema.nullable(),
    last_date: IsoDateSchema.nullable(),
    aspects: z.array(EntityAspectSchema).meta({ description: 'Aspect profile: every aspect those reviews mention.' }),
    strengths: z.array(z.string()).meta({ description: 'Aspect ids with at least 5 mentions whose positive share has a Wilson lower bound (95%) of 0.5 or more, most certain first.' }),
    concerns: z.array(z.string()).meta({ description: 'Aspect ids with at least 5 mentions whose negative share has a Wilson lower bound (95%) of 0.5 or more.' }),
    trend: z.array(EntityTrendPointSchema),
    recent_review_ids: z.array(z.string()).meta({ description: 'Up to 5 of its reviews, newest first.' }),
    filter: SearchFilterSchema.nullable(),
  })
  .meta({ id: 'EntityInsight' });

export const TopicSchema = z
  .object({
    phrase: z.string().meta({ description: 'A recurring key phrase (2–3 words), lowercase.' }),
    reviews: CountSchema.meta({ description: 'Reviews that contain the phrase as whole words.' }),
    positive: CountSchema.meta({ description: 'Of those, reviews whose sentences with the phrase read positive.' }),
    neutral: CountSchema,
    negative: CountSchema,
    net_score: z.int().min(-100).max(100).nullable(),
    average_rating: z.number().nullable(),
    aspects: z.array(z.string()).meta({ description: 'Aspects most often mentioned in the same sentences, up to 3.' }),
    review_ids: z.array(z.string()).meta({ description: 'Up to 5 reviews with the phrase, newest first.' }),
    filter: SearchFilterSchema,
  })
  .meta({ id: 'InsightTopic' });

export const FaqEntrySchema = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    source: z.enum(['data', 'editor']).meta({ description: '`data`: written from the reviews; `editor`: content/insights/faq.json.' }),
    aspect: z.string().nullable(),
    figures: z.record(z.string(), z.number()).meta({ description: 'The numbers the answer quotes, by name.' }),
    review_ids: z.array(z.string()).meta({ description: 'Reviews that back the answer.' }),
  })
  .meta({ id: 'FaqEntry' });

export const InsightsBasisSchema = z.object({
  review_count: CountSchema,
  first_date: IsoDateSchema.nullable(),
  last_date: IsoDateSchema.nullable().meta({ description: 'Date of the newest review taken into account.' }),
  average_rating: z.number().nullable(),
  unread: CountSchema.optional().meta({
    description: 'Reviews the analysis could not read: written in a language other than English, with no English translation. Absent when none.',
  }),
});

export const SummaryHighlightSchema = z.object({
  aspect: z.string(),
  kind: z.enum(['strength', 'concern', 'trend']),
  ...statsShape,
  review_ids: z.array(z.string()),
});

export const SummarySchema = z
  .object({
    text: z.string().meta({ description: 'The summary to show: the editor\'s when there is one, else the generated one.' }),
    source: z.enum(['data', 'editor']),
    generated_text: z.string().meta({ description: 'The summary written from the data, always present.' }),
    basis: InsightsBasisSchema,
    editor_as_of: IsoDateSchema.nullable().meta({ description: 'Date the editor says their text reflects.' }),
    stale: z.boolean().meta({ description: 'True when the editor\'s text predates the newest review.' }),
    highlights: z.array(SummaryHighlightSchema),
  })
  .meta({ id: 'InsightsSummary' });

const replyShape = {
  reviews: CountSchema.meta({ description: 'Reviews in the band.' }),
  replied: CountSchema.meta({ description: 'Of those, reviews with a reply from the owner.' }),
  reply_rate: z.number().min(0).max(1).nullable().meta({ description: 'replied / reviews, 3 decimals; null without reviews.' }),
  median_reply_days: z
    .number()
    .min(0)
    .nullable()
    .meta({ description: 'Median days from the review to the reply, 1 decimal; null without replies.' }),
};

export const ResponseBandSchema = z.object({
  band: z.enum(['1-2', '3', '4-5']).meta({ description: 'Star band: 1–2, 3 or 4–5 stars.' }),
  ...replyShape,
});

export const ResponseStatsSchema = z
  .object({ ...replyShape, bands: z.array(ResponseBandSchema).meta({ description: 'The same figures per star band: 1–2, 3, 4–5.' }) })
  .meta({ id: 'InsightsResponses', description: 'How the business answers its reviews: reply rate and median reply time, overall and by star band.' });

export const InsightsSchema = z
  .object({
    basis: InsightsBasisSchema,
    aspects: z.array(AspectInsightSchema).meta({ description: 'One entry per aspect of the aspect set, in its order.' }),
    entities: z.object({
      technicians: z.array(EntityInsightSchema),
      services: z.array(EntityInsightSchema),
      service_areas: z.array(EntityInsightSchema),
      locations: z
        .array(EntityInsightSchema)
        .optional()
        .meta({ description: 'Per location (`id` is its id), in business.json order; present only for a business that lists locations. `basis` counts these and the reviews that name no location.' }),
    }),
    topics: z.array(TopicSchema).meta({ description: 'Recurring key phrases, most frequent first.' }),
    faq: z.array(FaqEntrySchema),
    responses: ResponseStatsSchema,
    summary: SummarySchema,
    jobs: JobFiguresSchema.nullable().meta({ description: 'Jobs logged in the review log and the reviews tied to them, overall and per month, as /log/ shows them; null for a build without a review log.' }),
  })
  .meta({
    id: 'Insights',
    description:
      'Aspect-based sentiment of the verified reviews, per technician, service and area, recurring topics, an FAQ, how the owner replies and a summary. Deterministic: the same reviews give the same document.',
  });

export type Insights = z.infer<typeof InsightsSchema>;
export type AspectInsight = z.infer<typeof AspectInsightSchema>;
export type AspectStats = z.infer<typeof AspectStatsSchema>;
export type EntityInsight = z.infer<typeof EntityInsightSchema>;
export type Topic = z.infer<typeof TopicSchema>;
export type FaqEntry = z.infer<typeof FaqEntrySchema>;
export type Summary = z.infer<typeof SummarySchema>;
export type InsightsBasis = z.infer<typeof InsightsBasisSchema>;
export type CountEstimate = z.infer<typeof CountEstimateSchema>;
export type AspectAccuracy = NonNullable<z.infer<typeof AspectAccuracySchema>>;
export type Quote = z.infer<typeof QuoteSchema>;
export type ResponseStats = z.infer<typeof ResponseStatsSchema>;
export type ResponseBand = z.infer<typeof ResponseBandSchema>;
