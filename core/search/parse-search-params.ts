/**
 * REST query string → the raw search input that resolveSearchQuery judges (interface.md "GET
 * /api/reviews/search"). This step only reads the query string; every value is judged once, by
 * resolveSearchQuery, for REST and MCP alike.
 *
 * Rules:
 * - The accepted names are the keys of the parameter shape (SearchFiltersShape unless another is
 *   given); any other name is `unrecognized_parameter`.
 * - Each parameter may appear once; `?rating=4&rating=5` is `repeated_parameter` rather than a guess.
 * - Conversion follows each parameter's JSON type in the shape, strictly, and leaves the judging to the
 *   schema: an `integer` becomes a number only when it is plain digits (`^[0-9]+$`), a `number` when it is
 *   digits with an optional fraction (`^[0-9]+(\.[0-9]+)?$`), a `boolean` only when it is `true` or
 *   `false` (what an HTML checkbox with `value="true"` sends). Anything else (`2.5`, `1e2`, ` 3`, `0x10`,
 *   ``) stays a string, which the schema then refuses with its own message.
 *
 * A new parameter therefore needs no change here: add it to the shape.
 */
import { z } from 'zod';
import type { ErrorIssue } from '../schemas/errors.ts';
import { SearchFiltersShape } from '../schemas/search.ts';
import { describeUnknownParameter } from './search-issues.ts';

export type SearchParams = {
  /** The known parameters given once, converted; not yet judged. */
  input: Record<string, unknown>;
  /** Unknown and repeated names, in query-string order. */
  issues: ErrorIssue[];
};

type Conversion = (value: string) => unknown;

const INTEGER = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const CONVERSIONS: Readonly<Record<string, Conversion>> = {
  integer: (value) => (INTEGER.test(value) ? Number(value) : value),
  number: (value) => (DECIMAL.test(value) ? Number(value) : value),
  boolean: (value) => (value === 'true' ? true : value === 'false' ? false : value),
};

const conversionsByShape = new WeakMap<object, ReadonlyMap<string, Conversion | undefined>>();

/** Each parameter's conversion, from the JSON type of its schema (strings are kept as given). */
function conversionsOf(shape: Readonly<Record<string, z.ZodType>>): ReadonlyMap<string, Conversion | undefined> {
  let conversions = conversionsByShape.get(shape);
  if (conversions === undefined) {
    conversions = new Map(
      Object.entries(shape).map(([name, schema]) => {
        const { type } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { type?: unknown };
        return [name, typeof type === 'string' ? CONVERSIONS[type] : undefined];
      }),
    );
    conversionsByShape.set(shape, conversions);
  }
  return conversions;
}

/** `listed`: the names an unknown parameter's message lists, when not all of the shape's (search-request.ts). */
export function parseSearchParams(params: URLSearchParams, shape: Readonly<Record<string, z.ZodType>> = SearchFiltersShape, listed?: readonly string[]): SearchParams {
  const conversions = conversionsOf(shape);
  const issues: ErrorIssue[] = [];
  const input: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (!conversions.has(name)) {
      issues.push(describeUnknownParameter(name, listed ?? [...conversions.keys()]));
      continue;
    }
    const values = params.getAll(name);
    if (values.length > 1) {
      issues.push({ path: [name], message: `must be given at most once (given ${values.length} times)`, code: 'repeated_parameter' });
      continue;
    }
    const convert = conversions.get(name);
    input[name] = convert ? convert(values[0]!) : values[0]!;
  }
  return { input, issues };
}

/**
 * The names an unknown parameter's message lists, for a parameter shape: `location` only for a business
 * with locations (issue 43), so the others' answers stay as they were. `location` is judged either way
 * (resolveSearchQuery).
 */
export function listParametersFor(shape: Readonly<Record<string, z.ZodType>>): (business: { locations?: readonly unknown[] | undefined }) => readonly string[] {
  const all = Object.keys(shape);
  const withoutLocation = all.filter((name) => name !== 'location');
  return (business) => (business.locations === undefined ? withoutLocation : all);
}
