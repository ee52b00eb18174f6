/**
 * A served review's digest in the review log (docs/log.md): base64 SHA-256 of the RFC 8785 form of the
 * fields that are the review itself. Only node:crypto and review-digest-input.ts here, so `npm run verify`
 * can be copied with these files alone.
 */
import { hash } from 'node:crypto';
import { reviewDigestInput } from './review-digest-input.ts';

export { REVIEW_DIGEST_FIELDS } from './review-digest-input.ts';

/** The served review's digest: base64 SHA-256 of RFC 8785 over REVIEW_DIGEST_FIELDS (absent ones left out). */
export function digestReview(review: Readonly<Record<string, unknown>>): string {
  return hash('sha256', reviewDigestInput(review), 'base64');
}
