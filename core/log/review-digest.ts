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

/** The fields in RFC 8785 member order (all ASCII, so code-unit order is plain string order). */
const SORTED_FIELDS = [...REVIEW_DIGEST_FIELDS].sort();

/** The served review's digest: base64 SHA-256 of RFC 8785 over REVIEW_DIGEST_FIELDS (absent ones left out). */
export function digestReview(review: Readonly<Record<string, unknown>>): string {
  // The members written in sorted order directly: the same bytes as canonicalizeJson of the picked
  // object, without sorting 10,000 reviews' keys on every build.
  let json = '';
  for (const field of SORTED_FIELDS) {
    const value = review[field];
    if (value === undefined) continue;
    json += `${json === '' ? '{' : ','}"${field}":${canonicalizeJson(value)}`;
  }
  return hash('sha256', json === '' ? '{}' : `${json}}`, 'base64');
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
