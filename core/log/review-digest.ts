/**
 * A served review's digest in the review log (docs/log.md): base64 SHA-256 of the RFC 8785 form of the
 * fields that are the review itself. Only node:crypto, canonical-json.ts and review-digest-input.ts here, so `npm run verify`
 * can be copied with these files alone.
 */
import { hash } from 'node:crypto';
import { canonicalizeJson } from './canonical-json.ts';
import { reviewDigestInput } from './review-digest-input.ts';

export { REVIEW_DIGEST_FIELDS } from './review-digest-input.ts';

/** The served review's digest: base64 SHA-256 of RFC 8785 over REVIEW_DIGEST_FIELDS (absent ones left out). */
export function digestReview(review: Readonly<Record<string, unknown>>): string {
  return hash('sha256', reviewDigestInput(review), 'base64');
}

/**
 * The digests of a served review's parts, which `publish` and `update` entries carry beside the whole
 * one (core/log/entry.ts): `words` over RFC 8785 `{"text":…,"title":…}`, `reply` over RFC 8785 of its
 * `response` (`null` when it has none). Two entries of a review then show whether its words or its
 * reply changed between them.
 */
export function digestReviewParts(review: Readonly<Record<string, unknown>>): { words: string; reply: string } {
  const words = canonicalizeJson({ text: review.text ?? null, title: review.title ?? null });
  return { words: hash('sha256', words, 'base64'), reply: hash('sha256', canonicalizeJson(review.response ?? null), 'base64') };
}
