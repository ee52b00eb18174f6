/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by their names' UTF-16 code units, no
 * whitespace, numbers as ECMAScript writes them, strings escaped as JSON.stringify does (which is what
 * §3.2.2.2 asks). The digests of the review log hash these bytes, so the same review always hashes the
 * same whoever serialises it.
 */
import { compareText } from '../text/text-rules.ts';
export function canonicalizeJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('RFC 8785 has no form for NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalizeJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      // Default sort compares UTF-16 code units, as §3.2.3 asks.
      .sort(([a], [b]) => compareText(a, b));
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${canonicalizeJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`RFC 8785 has no form for a ${typeof value}`);
}
