/**
 * What every export format maps to, and the rules they share: the stable id of an imported review,
 * and turning a candidate into a content review through the content model's own schema
 * (core/schemas/content.ts), so an import can never write a review the build would refuse.
 */
import { createHash } from 'node:crypto';
import { ReviewContentSchema, type ReviewContent } from '../../core/schemas/content.ts';
import type { z } from 'zod';
import { formatIssues, parseWithIssues } from '../../core/schemas/issues.ts';
import type { RemoteMedia } from './media-download.ts';

export type ReviewField = keyof ReviewContent;

/** The content fields in the order the schema declares them: imported files list keys in this order. */
export const REVIEW_FIELDS = Object.keys(ReviewContentSchema.shape) as ReviewField[];

/**
 * Fields an owner sets by hand in the content folder. A re-import never touches them, whatever the
 * export says; everything else an export supplies is the platform's to change.
 */
export const OWNER_FIELDS: readonly ReviewField[] = ['verified', 'technicians', 'services', 'service_area'];

/**
 * Where a review (or a job) came from, for messages: a file and a row (CSV: the header is row 1) or the
 * review's id (the job's number) in the export.
 */
export type Origin = { file: string; row?: number; review?: string; job?: string };

/** One review of an export, valid under the content model. */
export type ImportedReview = {
  origin: Origin;
  review: ReviewContent;
  /** The fields this export supplies; the others stay as the content folder has them on re-import. */
  supplied: readonly ReviewField[];
  /** When the export says it last changed (Google's updateTime): the newest copy of a review wins. */
  version?: string;
  /** Photos and videos the export lists by URL: the import downloads them into the folder (import-media.ts). */
  remoteMedia?: RemoteMedia[];
  /** Media entries of the export that could not be read, reported on the review's line. */
  mediaProblems?: string[];
  /**
   * The platform's own name of the place the review is about (a Google review's
   * `accounts/…/locations/…`; a CSV's location column: a location's id or name): the import gives the
   * review the business.json location of that name (review-locations.ts).
   */
  sourceLocation?: string;
  /** A part of the review the import left out (a reply it cannot hold), reported on the review's line. */
  setAside?: string[];
};

/**
 * Why a review (or a job) was left out. `invalid` is bad data (and what `--strict` refuses the import
 * for); the others are reviews the content model cannot hold, jobs not completed yet, or what the export
 * lists twice.
 */
export type SkipReason = 'invalid' | 'no-text' | 'not-completed' | 'duplicate';

export type Skip = { origin: Origin; reason: SkipReason; field?: string; message: string };

/** What a format's mapper returns for one file. */
export type MappedExport = {
  reviews: ImportedReview[];
  skipped: Skip[];
  /**
   * Ids of every review the export lists, skipped ones included, so that `--prune` removes only
   * what the export no longer has, never a review that is merely invalid this time.
   */
  listedIds: string[];
};

/** A file that cannot be read as its format at all: the whole import stops. */
export type FileFailure = { ok: false; file: string; message: string };

/** Options every format shares. */
export type MapOptions = {
  /** `full` keeps the display name; `initials` keeps the first name and the last name's initial. */
  authorStyle: 'full' | 'initials';
  /** `verified` given to reviews added by this import (an owner's later edit is kept). */
  verified: boolean;
};

/**
 * The id of an imported review: the source and a hash of the source's own id. A hash, because source
 * ids are case-sensitive and unrestricted (Google's look like `AbFvOq…_x-Z`) while content ids are
 * `[a-z0-9-]+`; 16 hex digits make a collision among one business's reviews practically impossible.
 */
export function deriveReviewId(source: string, sourceId: string): string {
  return `${source}-${createHash('sha256').update(sourceId).digest('hex').slice(0, 16)}`;
}

/** "Latoya Williams" → "Latoya W.": the first word, then the initial of the last one. */
export function applyAuthorStyle(name: string, style: MapOptions['authorStyle']): string {
  const words = name.trim().split(/\s+/);
  if (style === 'full' || words.length < 2) return name.trim();
  const last = words.at(-1)!;
  const initial = [...last.replace(/^[^\p{L}\p{N}]+/u, '')][0];
  return initial === undefined ? words[0]! : `${words[0]} ${initial.toUpperCase()}.`;
}

/**
 * Validates a candidate with the content model. A failure names the export's own field
 * (`fieldNames` maps a content field to it: `rating` → `starRating`, or a CSV column header).
 */
export function toImportedReview(
  candidate: Record<string, unknown>,
  context: { origin: Origin; supplied: readonly ReviewField[]; fieldNames: Partial<Record<ReviewField, string>>; version?: string },
): { ok: true; value: ImportedReview } | { ok: false; skip: Skip } {
  const parsed = parseItem(ReviewContentSchema, candidate, context.origin, (field) => context.fieldNames[field as ReviewField] ?? field);
  if (!parsed.ok) return parsed;
  const value: ImportedReview = { origin: context.origin, review: parsed.value, supplied: context.supplied };
  if (context.version !== undefined) value.version = context.version;
  return { ok: true, value };
}

/**
 * One exported item parsed with `schema`, or the skip that names every problem: a lone problem as its
 * field and message, several as one message listing each. `nameField` gives a field the export's name.
 */
export function parseItem<S extends z.ZodType>(
  schema: S,
  item: unknown,
  origin: Origin,
  nameField: (field: string) => string = (field) => field,
): { ok: true; value: z.output<S> } | { ok: false; skip: Skip } {
  const parsed = parseWithIssues(schema, item);
  if (parsed.ok) return parsed;
  const issues = parsed.issues.map(({ path: [first, ...rest], message }) => ({ path: first === undefined ? [] : [nameField(String(first)), ...rest], message }));
  const [only] = issues;
  if (issues.length === 1 && only) return { ok: false, skip: { origin, reason: 'invalid', field: only.path.join('.') || undefined, message: only.message } };
  return { ok: false, skip: { origin, reason: 'invalid', message: formatIssues(issues, '; ') } };
}

/**
 * A reply dated before its review is one the build refuses (core/content/parse-content.ts), and it
 * would take the customer's review down with it: the review is kept and the reply left out, with a
 * message saying what to fix. Removes `response` from `candidate` and returns the message.
 */
export function setAsideEarlyReply(candidate: { date?: unknown; response?: { date: string; text: string } }): string | undefined {
  const reply = candidate.response;
  if (reply === undefined || typeof candidate.date !== 'string' || reply.date >= candidate.date) return undefined;
  delete candidate.response;
  const excerpt = reply.text.length > 60 ? `${reply.text.slice(0, 57)}...` : reply.text;
  return `the reply ("${excerpt}") is dated ${reply.date}, before the review (${candidate.date}): the review is imported without it; correct the reply's date in the export and import again`;
}

/** The reviews an importer made for `source` (its ids start with the source): what `--prune` may remove. */
export function isImportedFrom(source: string): (review: Record<string, unknown>) => boolean {
  return (review) => review.source === source && typeof review.id === 'string' && review.id.startsWith(`${source}-`);
}

/** A JSON export's text as data (a UTF-8 byte order mark allowed), or why it is not JSON. */
export function parseJsonExport(text: string, file: string): { ok: true; data: unknown } | FileFailure {
  try {
    return { ok: true, data: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    return { ok: false, file, message: `not valid JSON: ${(error as Error).message}` };
  }
}

/** Removes (in place) the keys whose value is undefined, so optional fields are absent rather than undefined. */
export function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  for (const key in value) if (value[key] === undefined) delete value[key];
  return value;
}
