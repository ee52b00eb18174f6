/**
 * The aspect sentiment a published review carries (`aspects`), and the polarity that the `aspect_sentiment`
 * search filter and /insights.json use. core/insights computes them; the schemas live here so that
 * published shapes never import the analyzer.
 */
import { z } from 'zod';

export const PolaritySchema = z
  .enum(['positive', 'neutral', 'negative'])
  .meta({ id: 'AspectPolarity', description: 'Sentiment of the customer about one aspect.' });

export const EvidenceSpanSchema = z
  .object({
    field: z.enum(['title', 'text']).meta({ description: 'Which string of the review the offsets index: its `title` or its `text`.' }),
    start: z.int().min(0),
    end: z.int().min(0),
  })
  .meta({
    id: 'EvidenceSpan',
    description:
      'Words that decided an aspect: `review[field].slice(start, end)`. Offsets count UTF-16 code units, as JavaScript string indexes do (an emoji counts 2).',
  });

export const ReviewAspectSchema = z
  .object({
    aspect: z.string().meta({ description: 'Aspect id from the aspect set, e.g. `punctuality`, `price`.' }),
    polarity: PolaritySchema,
    score: z
      .number()
      .min(-1)
      .max(1)
      .meta({ description: 'Strength from -1 (very negative) to 1 (very positive), 3 decimals; near 0 is neutral.' }),
    evidence: z.array(EvidenceSpanSchema).meta({
      description:
        'Where the review says it, in reading order (title first): the aspect\'s words and the opinions attached to them, or, when the analyzer inferred the aspect (a price from amounts, a late arrival from times), the words that weighed most.',
    }),
  })
  .meta({ id: 'ReviewAspect', description: 'One aspect the review talks about and how the customer felt about it.' });

export type Polarity = z.infer<typeof PolaritySchema>;
export type ReviewAspect = z.infer<typeof ReviewAspectSchema>;
export type EvidenceSpan = z.infer<typeof EvidenceSpanSchema>;
