/**
 * The change log of the published reviews (issue 23 item 4), read from the review log (core/log/,
 * docs/log.md): what a mirror needs to stay equal to `/reviews.json` without downloading it again.
 *
 * - Compacted: one entry per review, its last entry in the review log, in log order. A review published
 *   or updated is sent whole, as `/reviews.json` holds it now; one withdrawn is a tombstone (id, time and
 *   the owner's reason, no personal data). The log never drops an entry, so neither does this.
 * - A token is a position in the review log and the first bytes of that entry's leaf hash
 *   (`<position>.<check>`, base64url): the service recognises its own tokens, and an altered or forged one
 *   is refused as invalid (400). A token of the change log before the review log (a commit-history
 *   token) is expired (410): the client starts again from `/reviews.json`.
 */
import { z } from 'zod';
import { hashLeaf, UpdateChangeSchema, type LogEntry, type UpdateChange } from '../log/index.ts';
import { summarizeUpdates } from '../log/entry-history.ts';
import type { Change, ChangesResult } from '../schemas/changes.ts';
import type { PublishedReview } from '../schemas/published.ts';
import { formatIssues, parseWithIssues } from '../schemas/issues.ts';

const KIND = { publish: 'added', update: 'changed', withdraw: 'removed' } as const;
/** Base64url characters of a leaf hash a token carries: 48 bits, enough to tell an altered token. */
export const CHECK_LENGTH = 8;

/** `update`: for a change, what the review log says of it (core/log/entry-history.ts). */
export type ChangeLogEntry = {
  index: number;
  id: string;
  time: string;
  kind: 'added' | 'changed' | 'removed';
  reason?: string | undefined;
  update?: { change: UpdateChange | null; previous_rating: number | null; words_changed: boolean | null } | undefined;
};

export type ChangeLog = {
  /** One per review, its last entry, by position in the review log. */
  entries: ChangeLogEntry[];
  /** The check of every position of the review log, concatenated (CHECK_LENGTH characters each). */
  checks: string;
};

/** The change log of the review log's entries (`bytes`: each entry as the log holds it). */
export function createChangeLog(entries: readonly LogEntry[], bytes: readonly Uint8Array[]): ChangeLog {
  const updates = new Map(summarizeUpdates(entries).map((u) => [u.entry, u]));
  const last = new Map<string, ChangeLogEntry>();
  entries.forEach((e, index) => {
    // A job entry changes no review (the change log lists reviews); its position still has its check.
    if (e.action === 'job') return;
    last.delete(e.review_id);
    const u = updates.get(index);
    const update = u && { change: u.change, previous_rating: u.previous_rating === u.rating ? null : u.previous_rating, words_changed: u.words_changed };
    last.set(e.review_id, { index, id: e.review_id, time: e.time, kind: KIND[e.action], ...(e.action === 'withdraw' ? { reason: e.reason } : {}), ...(update ? { update } : {}) });
  });
  return {
    entries: [...last.values()].sort((a, b) => a.index - b.index),
    checks: bytes.map((b) => hashLeaf(b).toString('base64url').slice(0, CHECK_LENGTH)).join(''),
  };
}

/** The stored form beside the build (core/publishing/manifest.ts CHANGE_LOG_FILE): entries as tuples. */
export const StoredChangeLogSchema = z.strictObject({
  checks: z.string().regex(/^[A-Za-z0-9_-]*$/),
  entries: z.array(
    z.union([
      z.tuple([z.int().min(0), z.string(), z.iso.datetime(), z.enum(['added', 'changed'])]),
      // A change with what the review log says of it: its kind, the rating it replaced, whether the words changed.
      z.tuple([z.int().min(0), z.string(), z.iso.datetime(), z.literal('changed'), UpdateChangeSchema.nullable(), z.int().min(1).max(5).nullable(), z.boolean().nullable()]),
      z.tuple([z.int().min(0), z.string(), z.iso.datetime(), z.literal('removed'), z.string()]),
    ]),
  ),
});

export function renderChangeLog(log: ChangeLog): string {
  const entries = log.entries.map((e) => {
    if (e.kind === 'removed') return JSON.stringify([e.index, e.id, e.time, e.kind, e.reason ?? 'other']);
    if (e.update) return JSON.stringify([e.index, e.id, e.time, e.kind, e.update.change, e.update.previous_rating, e.update.words_changed]);
    return JSON.stringify([e.index, e.id, e.time, e.kind]);
  });
  return `{"checks":${JSON.stringify(log.checks)},"entries":[\n${entries.join(',\n')}\n]}\n`;
}

/**
 * The stored log, checked against the reviews it is served with: every published review has its entry
 * and every entry that is not a removal names a published review, or the build is not loaded.
 */
export function parseChangeLog(text: string, reviews: ReadonlyMap<string, unknown>): { ok: true; log: ChangeLog } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `is not JSON (${(error as Error).message})` };
  }
  const parsed = parseWithIssues(StoredChangeLogSchema, json);
  if (!parsed.ok) return { ok: false, message: `does not match its schema:\n${formatIssues(parsed.issues)}` };
  const log: ChangeLog = {
    checks: parsed.value.checks,
    entries: parsed.value.entries.map((t): ChangeLogEntry => {
      const [index, id, time, kind] = t;
      if (t[3] === 'removed') return { index, id, time, kind, reason: t[4] };
      if (t.length === 7) return { index, id, time, kind, update: { change: t[4], previous_rating: t[5], words_changed: t[6] } };
      return { index, id, time, kind };
    }),
  };
  let upserts = 0;
  for (const entry of log.entries) {
    if (entry.kind === 'removed') continue;
    if (!reviews.has(entry.id)) return { ok: false, message: `lists review ${entry.id} as ${entry.kind}, but the build does not publish it` };
    upserts++;
  }
  if (upserts !== reviews.size) return { ok: false, message: `lists ${upserts} published reviews; the build publishes ${reviews.size}` };
  return { ok: true, log };
}

/** A build without a review log (from before it): every published review added, with no token to resume from. */
export function createChangeLogWithoutHistory(reviews: readonly PublishedReview[]): ChangeLog {
  return { entries: reviews.map((r, index) => ({ index, id: r.id, time: r.updated, kind: 'added' as const })), checks: '' };
}

export type ChangePage = ({ ok: true } & Omit<ChangesResult, 'count' | 'limit'>) | { ok: false; reason: 'invalid_token' | 'expired_token'; message: string };

function checkAt(log: ChangeLog, index: number): string | undefined {
  const at = index * CHECK_LENGTH;
  return at + CHECK_LENGTH <= log.checks.length ? log.checks.slice(at, at + CHECK_LENGTH) : undefined;
}

export function encodeChangeToken(log: ChangeLog, index: number): string {
  return `${index}.${checkAt(log, index) ?? ''}`;
}

/**
 * A position this log issued; 'old' for a token of the change log before the review log. A log without
 * checks (a build from before the review log) issues its positions with none, and takes them back.
 */
function decodeChangeToken(log: ChangeLog, text: string): number | 'old' | undefined {
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{8})?$/.exec(text);
  if (m) {
    const index = Number(m[1]);
    return checkAt(log, index) === m[2] ? index : undefined;
  }
  // The earlier tokens: base64url JSON `[version, id, time, commit]`.
  if (/^[A-Za-z0-9_-]{8,400}$/.test(text) && Buffer.from(text, 'base64url').toString('utf8').startsWith('[')) return 'old';
  return undefined;
}

/** What a client that lost its place is told to do. */
const START_AGAIN = 'start again from /reviews.json: replace your copy with it, then read this log from the beginning (leave since out); entries your copy already holds apply again harmlessly.';

/** The entries after `since` (all without it), at most `limit`, with the current review of each upsert unless `compact`. */
export function readChangePage(
  log: ChangeLog,
  reviews: ReadonlyMap<string, PublishedReview>,
  since: string | undefined,
  limit: number,
  options: { compact?: boolean } = {},
): ChangePage {
  const token = since === undefined ? undefined : decodeChangeToken(log, since);
  // The words of every other cursor (core/paging.ts), so a client handles a bad one the same way.
  if (since !== undefined && token === undefined) return { ok: false, reason: 'invalid_token', message: 'is not a cursor this server issued' };
  if (token === 'old') return { ok: false, reason: 'expired_token', message: `The change log now reads the review log (/log/), and tokens from before it no longer apply: ${START_AGAIN}` };
  const start = token === undefined ? 0 : firstAfter(log.entries, token);
  const slice = log.entries.slice(start, start + limit);
  const changes = slice.map((entry): Change => {
    if (entry.kind === 'removed') return { id: entry.id, time: entry.time, kind: 'removed', entry: entry.index, reason: entry.reason ?? 'other' } as Change;
    // The review's own `updated`, so the log and /reviews.json agree: the entry's time, or the review's
    // date when it is later (core/content/review-history.ts resolveUpdated).
    const review = reviews.get(entry.id)!;
    const said = entry.kind === 'changed' ? (entry.update ?? { change: null, previous_rating: null, words_changed: null }) : {};
    const change = { id: entry.id, time: review.updated, kind: entry.kind, entry: entry.index, ...said };
    return (options.compact ? change : { ...change, review }) as Change;
  });
  const last = slice.at(-1);
  const next = last ? encodeChangeToken(log, last.index) : (since ?? null);
  return { ok: true, changes, next_token: next, has_more: start + slice.length < log.entries.length };
}

function firstAfter(entries: readonly ChangeLogEntry[], index: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (entries[mid]!.index <= index) low = mid + 1;
    else high = mid;
  }
  return low;
}
