/**
 * A served review's digest in the review log (docs/log.md): base64 SHA-256 of the RFC 8785 form of the
 * fields that are the review itself. Only node:crypto and canonical-json.ts here, so `npm run verify`
 * can be copied with these files alone.
 */
import { hash } from 'node:crypto';
import { canonicalizeJson } from './canonical-json.ts';

/**
 * The fields of a served review that are the review itself. The build derives the rest (`url`, `updated`,
 * `technicians`, `services`, `media`, `aspects`), so an analysis or layout change rewrites no digest.
 * The build and `npm run verify` both read this list.
 */
export const REVIEW_DIGEST_FIELDS = ['id', 'rating', 'date', 'text', 'title', 'author', 'source', 'source_url', 'verified', 'service_area', 'response'] as const;

/** The served review's digest: base64 SHA-256 of RFC 8785 over REVIEW_DIGEST_FIELDS (absent ones left out). */
export function digestReview(review: Readonly<Record<string, unknown>>): string {
  const own: Record<string, unknown> = {};
  for (const field of REVIEW_DIGEST_FIELDS) if (review[field] !== undefined) own[field] = review[field];
  return hash('sha256', canonicalizeJson(own), 'base64');
}
