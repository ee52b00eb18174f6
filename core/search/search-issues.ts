/**
 * Turns SearchQuerySchema's verdict into the service's issues: one per bad parameter, each
 * `{ path: [param], message, code }` (CONTRACT.md "Published shapes"), with messages a person or an
 * agent can act on. Used by resolveSearchQuery only, the one judge of REST (after parse-search-params.ts) and MCP input.
 */
import type { z } from 'zod';
import type { ErrorIssue } from '../schemas/errors.ts';
import { SearchFiltersShape, SearchQuerySchema, type SearchQuery } from '../schemas/search.ts';

export const SEARCH_PARAMETERS: readonly string[] = Object.keys(SearchFiltersShape);

export type SearchValidation = { ok: true; query: SearchQuery } | { ok: false; issues: ErrorIssue[] };

/** Messages for the cases the schema leaves to zod's defaults. */
const describeIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      // Only the whole input is expected to be an object; every parameter is a scalar.
      if (issue.expected === 'object') return 'search parameters must be an object';
      return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_format':
      return issue.format === 'date' ? 'must be a calendar date written YYYY-MM-DD, e.g. 2024-02-29' : undefined;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} characters` : undefined;
    default:
      return undefined;
  }
};

export function describeUnknownParameter(name: string, known: readonly string[] = SEARCH_PARAMETERS): ErrorIssue {
  return {
    path: [name],
    message: `is not a search parameter; the parameters are ${known.join(', ')}`,
    code: 'unrecognized_parameter',
  };
}

/** Parses `input` with SearchQuerySchema and reports every bad parameter (the first problem of each). */
export function validateSearchInput(input: unknown): SearchValidation {
  const parsed = SearchQuerySchema.safeParse(input, { error: describeIssue });
  if (parsed.success) return { ok: true, query: parsed.data };

  const issues: ErrorIssue[] = [];
  const seen = new Set<string>();
  const add = (issue: ErrorIssue) => {
    const key = String(issue.path[0] ?? '');
    if (seen.has(key)) return;
    seen.add(key);
    issues.push(issue);
  };
  const badFields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(describeUnknownParameter(key));
    } else if (issue.code === 'custom' && issue.path[0] === 'since') {
      // The schema's since ≤ until refinement compares raw strings; it only means something when
      // both are real dates.
      if (badFields.has('until') || input === null || typeof input !== 'object') continue;
      const until = (input as { until?: unknown }).until;
      add({ path: ['since'], message: `must not be after until (${String(until)})`, code: 'since_after_until' });
    } else {
      const path = issue.path.length === 0 ? [] : [String(issue.path[0])];
      add({ path, message: issue.message, code: issue.code });
    }
  }
  return { ok: false, issues };
}
