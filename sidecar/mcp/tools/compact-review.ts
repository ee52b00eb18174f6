/**
 * The review as search_reviews and get_reviews_since return it by default: what an agent reads and
 * cites (id, rating, date, title, text, author, technicians, services, the owner's reply, the page
 * URL), its photos (without the list of encoded variants) and each aspect's polarity. The character offsets of the evidence, 37% of a search answer's
 * bytes and of no use to a language model, come only with `evidence: true`; get_review and
 * /reviews.json always carry them.
 */
import { z } from 'zod';
import { EvidenceSpanSchema, PolaritySchema } from '../../../core/schemas/aspects.ts';
import { PublishedMediaSchema, PublishedReviewSchema, type PublishedReview } from '../../../core/schemas/published.ts';

const CompactMediaSchema = PublishedMediaSchema.omit({ variants: true, size_in_bytes: true });

export const CompactReviewSchema = PublishedReviewSchema.pick({
  id: true,
  rating: true,
  date: true,
  title: true,
  text: true,
  author: true,
  technicians: true,
  services: true,
  response: true,
  url: true,
}).extend({
  media: z.array(CompactMediaSchema).meta({ description: 'Photos and videos the customer attached (get_review adds every encoded width).' }),
  aspects: z.array(z.object({ aspect: z.string(), polarity: PolaritySchema, evidence: z.array(EvidenceSpanSchema).optional() })),
});

export type CompactReview = z.infer<typeof CompactReviewSchema>;

export const EvidenceArgumentSchema = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .meta({ description: 'true: add each aspect\'s evidence offsets (`review[field].slice(start, end)`); default false.' });

export function toCompactReview(review: PublishedReview, evidence = false): CompactReview & Pick<PublishedReview, 'language' | 'translation'> {
  const { id, rating, date, title, text, author, technicians, services, response, url } = review;
  return {
    id,
    rating,
    date,
    title,
    text,
    author,
    technicians,
    services,
    response,
    url,
    media: review.media.map(({ variants: _variants, size_in_bytes: _size, ...media }) => media),
    aspects: review.aspects.map((a) => (evidence ? { aspect: a.aspect, polarity: a.polarity, evidence: a.evidence } : { aspect: a.aspect, polarity: a.polarity })),
    // Left out of the schema, like get_review's (tools/list has no bytes to spare; docs/mcp.md describes them).
    ...(review.language === undefined ? {} : { language: review.language }),
    ...(review.translation === undefined ? {} : { translation: review.translation }),
  };
}
