/**
 * How a CSV's columns map to a review: a small JSON file (`--mapping yelp.json`), flags
 * (`--source yelp --column text="Review Text"`), or both, the flags winning.
 *
 *   { "source": "yelp", "columns": { "text": "Review Text", "date": "Date" }, "delimiter": ";", "day_first": false }
 */
import { z } from 'zod';
import { SlugSchema } from '../../core/schemas/content.ts';

export const COLUMN_FIELDS = ['id', 'rating', 'date', 'text', 'author', 'title', 'source_url', 'response', 'response_date'] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];

const HeaderSchema = z.string().trim().min(1, 'must name a column header');

export const CsvMappingSchema = z.strictObject({
  /** The `source` of every review in the file (`yelp`, `angi`, `facebook`, `direct`…); part of each id. */
  source: SlugSchema,
  /** Column headers, case-insensitive; a field left out is looked for under its usual headers. */
  columns: z
    .strictObject({
      id: HeaderSchema.optional(),
      rating: HeaderSchema.optional(),
      date: HeaderSchema.optional(),
      text: HeaderSchema.optional(),
      author: HeaderSchema.optional(),
      title: HeaderSchema.optional(),
      /** A link to the review on the platform (published as the review's `source_url`). */
      source_url: HeaderSchema.optional(),
      response: HeaderSchema.optional(),
      response_date: HeaderSchema.optional(),
    })
    .default({}),
  /** Guessed from the header line when absent. */
  delimiter: z.enum([',', ';', '\t', '|']).optional(),
  /** Read `03/04/2026` as 3 April rather than March 4. */
  day_first: z.boolean().default(false),
});

export type CsvMapping = z.infer<typeof CsvMappingSchema>;
