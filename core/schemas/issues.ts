/**
 * The one place zod's verdicts become words. Every parse whose problems reach a person or a client
 * (configuration, content, aspects, editor files, search, MCP arguments, hub requests, imports) passes
 * `describeZodIssue` as its error map, or goes through `parseWithIssues`, so messages read the house way
 * ("must be at most 200 characters") and none of zod's defaults ("Too big: expected string to have
 * <=200 characters") gets out. A message a schema gives itself (`{ error: '…' }`) still wins.
 */
import type { z } from 'zod';
import type { ErrorIssue } from './errors.ts';
import { plural } from '../text/text-rules.ts';

/** zod's own default phrases: what no message of ours may contain (the bad-input tests look for them). */
export const ZOD_DEFAULT_PHRASES = /Invalid input|Invalid option|Invalid string|Invalid format|Invalid ISO|Too big|Too small|Unrecognized key|expected (?:a |an )?(?:string|number|int|boolean|object|array|nonoptional)|received (?:undefined|null|string|number|object)/;

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

const TYPE_NAMES: Readonly<Record<string, string>> = { int: 'integer', nonoptional: 'value', undefined: 'nothing', null: 'null' };

function typeName(expected: string): string {
  return article(TYPE_NAMES[expected] ?? expected);
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

const FORMATS: Readonly<Record<string, string>> = {
  date: 'a calendar date written YYYY-MM-DD, e.g. 2024-02-29',
  datetime: 'a date and time written YYYY-MM-DDTHH:MM:SSZ',
  time: 'a time written HH:MM:SS',
  url: 'an absolute URL',
  email: 'an email address',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 range such as 10.0.0.0/8',
  cidrv6: 'an IPv6 range such as fd00::/8',
};

/**
 * A URL field that takes only some schemes says which (`javascript:alert(1)` is an absolute URL, just
 * not one a link may be): the schema's own `protocol` pattern, read from the issue's check.
 */
function describeUrlFormat(issue: { inst?: unknown }): string {
  const protocol = (issue.inst as { _zod?: { def?: { protocol?: RegExp } } } | undefined)?._zod?.def?.protocol?.source;
  if (protocol === '^https?$') return 'an absolute http(s) URL, e.g. https://example.com';
  if (protocol === '^https$') return 'an absolute https URL, e.g. https://example.com';
  return FORMATS.url!;
}

function sizeLimit(origin: string, bound: number | bigint, relation: 'at most' | 'at least' | 'less than' | 'more than' | 'exactly'): string {
  switch (origin) {
    case 'string':
      return `must be ${relation} ${plural(Number(bound), 'character', { format: String })}`;
    case 'array':
    case 'set':
      return `must have ${relation} ${plural(Number(bound), 'item', { format: String })}`;
    case 'date':
      return `must be ${relation.replace('at most', 'on or before').replace('at least', 'on or after')} ${String(bound)}`;
    default:
      return `must be ${relation} ${bound}`;
  }
}

/** The friendly message of one zod issue. */
export const describeZodIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${typeName(issue.expected)}`;
    case 'too_big':
      return sizeLimit(issue.origin, issue.maximum, issue.exact ? 'exactly' : issue.inclusive === false ? 'less than' : 'at most');
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1 && !issue.exact) return 'must not be empty';
      if ((issue.origin === 'array' || issue.origin === 'set') && issue.minimum === 1 && !issue.exact) return 'must not be empty';
      return sizeLimit(issue.origin, issue.minimum, issue.exact ? 'exactly' : issue.inclusive === false ? 'more than' : 'at least');
    case 'invalid_format': {
      if (issue.format === 'regex') return 'has the wrong form';
      if (issue.format === 'starts_with') return `must start with "${issue.prefix}"`;
      if (issue.format === 'ends_with') return `must end with "${issue.suffix}"`;
      if (issue.format === 'includes') return `must contain "${issue.includes}"`;
      if (issue.format === 'url') return `must be ${describeUrlFormat(issue)}`;
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `${plural(issue.keys.length, 'is an unknown field', { many: 'are unknown fields', word: true })}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'does not match any of the accepted forms';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    case 'invalid_value':
      return `${plural(issue.values.length, 'must be', { many: 'must be one of', word: true })} ${listValues(issue.values)}`;
    case 'custom':
      return 'is not valid';
    default:
      return 'is not valid';
  }
};

/** What `toIssues` says about a field the schema does not know. */
export type IssueOptions = { unknownKey?: string };

/**
 * zod issues (parsed with `describeZodIssue`) as the service's issues `{ path, message, code }`: an
 * unknown field becomes one issue per key, named by the key, with code `unrecognized_keys`.
 */
export function toIssues(issues: readonly z.core.$ZodIssue[], options: IssueOptions = {}): ErrorIssue[] {
  const unknownKey = options.unknownKey ?? 'is not a known field';
  return issues.flatMap((issue): ErrorIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...toPath(issue.path), key], message: unknownKey, code: issue.code }))
      : [{ path: toPath(issue.path), message: issue.message, code: codeOf(issue) }],
  );
}

/** A rule's own code (`params: { code }` on a custom issue, e.g. `since_after_until`), else zod's. */
function codeOf(issue: z.core.$ZodIssue): string {
  const own = issue.code === 'custom' ? issue.params?.code : undefined;
  return typeof own === 'string' ? own : issue.code;
}

function toPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((p) => (typeof p === 'number' ? p : String(p)));
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; issues: ErrorIssue[] };

/** Parses `input` with `schema` and the friendly messages; every problem comes back as an issue. */
export function parseWithIssues<S extends z.ZodType>(schema: S, input: unknown, options: IssueOptions = {}): ParseOutcome<z.output<S>> {
  const parsed = schema.safeParse(input, { error: describeZodIssue });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: toIssues(parsed.error.issues, options) };
}

/** An issue as one line for a person: `field.sub: message`, or the message alone at the top. */
export function formatIssue(issue: Pick<ErrorIssue, 'path' | 'message'>): string {
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`;
}

/** Every issue, each as `formatIssue` writes it, joined by `separator` (one per line by default). */
export function formatIssues(issues: readonly Pick<ErrorIssue, 'path' | 'message'>[], separator = '\n'): string {
  return issues.map(formatIssue).join(separator);
}
