/**
 * What a review's log digest hashes (docs/log.md): the RFC 8785 form of the fields that are the review
 * itself. No Node module here, so the browser's check (/log/check/) computes the same bytes as the build.
 */
import { canonicalizeJson } from './canonical-json.ts';

/**
 * The fields of a served review that are the review itself. The build derives the rest (`url`, `updated`,
 * `technicians`, `services`, `media`, `aspects`), so an analysis or layout change rewrites no digest.
 * `source_url` and `location` are served only when the review has them, and an absent field is left out,
 * so adding a field of that kind changes no existing review's digest.
 * The build, `npm run verify` and the browser's check all read this list.
 */
export const REVIEW_DIGEST_FIELDS = ['id', 'rating', 'date', 'text', 'title', 'author', 'source', 'source_url', 'verified', 'service_area', 'location', 'response'] as const;

/** The fields in RFC 8785 member order (all ASCII, so code-unit order is plain string order). */
const SORTED_FIELDS = [...REVIEW_DIGEST_FIELDS].sort();

/** RFC 8785 JSON of the review's REVIEW_DIGEST_FIELDS (absent ones left out): the digest's input. */
export function reviewDigestInput(review: Readonly<Record<string, unknown>>): string {
  // The members written in sorted order directly: the same bytes as canonicalizeJson of the picked
  // object, without sorting 10,000 reviews' keys on every build.
  let json = '';
  for (const field of SORTED_FIELDS) {
    const value = review[field];
    if (value === undefined) continue;
    json += `${json === '' ? '{' : ','}"${field}":${canonicalizeJson(value)}`;
  }
  return json === '' ? '{}' : `${json}}`;
}
