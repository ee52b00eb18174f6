/**
 * Turns SearchQuerySchema's verdict into the service's issues: one per bad parameter, each
 * `{ path: [param], message, code }` (CONTRACT.md "Published shapes"), with messages a person or an
 * agent can act on. Used by resolveSearchQuery only, the one judge of REST (after parse-search-params.ts) and MCP input.
 */
import type { z } from 'zod';
import type { ErrorIssue } from '../schemas/errors.ts';
import { describeZodIssue, toIssues } from '../schemas/issues.ts';
import { SearchFiltersShape, SearchQuerySchema, type SearchQuery } from '../schemas/search.ts';

export const SEARCH_PARAMETERS: readonly string[] = Object.keys(SearchFiltersShape);

export type SearchValidation = { ok: true; query: SearchQuery } | { ok: false; issues: ErrorIssue[] };

/** The house messages (core/schemas/issues.ts), with the whole input named when it is not an object. */
const describeIssue: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.expected === 'object' ? 'search parameters must be an object' : describeZodIssue(issue);

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
    } else {
      // The date-range rule compares raw strings; it only means something when until is a real date.
      if (issue.code === 'custom' && badFields.has('until')) continue;
      for (const described of toIssues([issue])) add({ ...described, path: described.path.slice(0, 1).map(String) });
    }
  }
  return { ok: false, issues };
}
