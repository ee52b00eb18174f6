/**
 * REST query string → search input (interface.md "GET /api/reviews/search").
 *
 * Rules:
 * - Only the parameters of SearchFiltersShape are accepted; any other name is `unrecognized_parameter`.
 * - Each parameter may appear once; `?rating=4&rating=5` is `repeated_parameter` rather than a guess.
 * - Conversion is strict and leaves the judging to SearchQuerySchema: `rating` and `limit` become numbers
 *   only when they are plain digits (`^[0-9]+$`), `min_rating` when it is digits with an optional
 *   fraction (`^[0-9]+(\.[0-9]+)?$`), and `has_response` becomes a boolean only when it is `true` or `false`
 *   (what an HTML checkbox with `value="true"` sends). Anything else (`2.5`, `1e2`, ` 3`, `0x10`, ``) stays a string,
 *   which the schema then refuses with its own message.
 * - When anything is wrong, the values that could be read are checked too, so one answer names every
 *   problem; technician and service names are judged later, by resolveSearchQuery.
 */
import type { ErrorIssue } from '../schemas/errors.ts';
import { describeUnknownParameter, SEARCH_PARAMETERS, validateSearchInput } from './search-issues.ts';

export type SearchParamsParse = { ok: true; input: Record<string, unknown> } | { ok: false; issues: ErrorIssue[] };

const INTEGER = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const CONVERSIONS: Readonly<Record<string, RegExp>> = { rating: INTEGER, limit: INTEGER, min_rating: DECIMAL };

function convertValue(name: string, value: string): unknown {
  if (name === 'has_response') return value === 'true' ? true : value === 'false' ? false : value;
  const pattern = CONVERSIONS[name];
  return pattern !== undefined && pattern.test(value) ? Number(value) : value;
}

export function parseSearchParams(params: URLSearchParams): SearchParamsParse {
  const issues: ErrorIssue[] = [];
  const input: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (!SEARCH_PARAMETERS.includes(name)) {
      issues.push(describeUnknownParameter(name));
      continue;
    }
    const values = params.getAll(name);
    if (values.length > 1) {
      issues.push({
        path: [name],
        message: `must be given at most once (given ${values.length} times)`,
        code: 'repeated_parameter',
      });
      continue;
    }
    input[name] = convertValue(name, values[0]!);
  }
  if (issues.length === 0) return { ok: true, input };

  const checked = validateSearchInput(input);
  if (!checked.ok) issues.push(...checked.issues);
  return { ok: false, issues };
}
