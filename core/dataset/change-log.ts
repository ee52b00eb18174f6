/**
 * The change log of the published reviews (issue 23 item 4): what a mirror needs to stay equal to
 * `/reviews.json` without downloading it again. Built from the changes core/content/review-history.ts
 * derives from the content's history.
 *
 * - Compacted: one entry per review, its last change, oldest first (the version of the history that made
 *   it, then id: commit times may repeat, versions do not). A review added or
 *   changed is sent whole, as `/reviews.json` holds it now; one removed or hidden is a tombstone (id
 *   and time, no personal data).
 * - Tombstones are kept for `TOMBSTONE_RETENTION_DAYS` before the newest change (not the clock, so the
 *   same history gives the same log); a token older than that is refused as expired, and the client
 *   must start again from `/reviews.json`.
 * - A token is the (version, id, time) of the last entry a client has, and the key of that version (a
 *   commit hash), opaque (base64url), so paging never skips or repeats an entry, whatever changes in
 *   between (a review changed again moves to the end). A token whose version no longer has that key (the
 *   history was rewritten: a rebase, a force push) is refused as expired too, never silently misread.
 * - Without a history (a content folder outside git), the log is every published review, added, in one
 *   version whose key is a hash of all of them: any change of the content expires every token, and a
 *   mirror starts again (the one correct answer when removals cannot be known).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ReviewChange } from '../content/review-history.ts';
import type { ChangesResult } from '../schemas/changes.ts';
import type { PublishedReview } from '../schemas/published.ts';
import { compareText } from '../text/text-rules.ts';

export const TOMBSTONE_RETENTION_DAYS = 90;

export type ChangeLogEntry = ReviewChange;

export type ChangeLog = {
  entries: ChangeLogEntry[];
  /** Tokens before this time are expired (tombstones before it were dropped); null when none were. */
  expiredBefore: string | null;
  /** Each version's key (a commit hash, shortened), by version index. */
  versionKeys: string[];
};

type Token = { version: number; id: string; time: string; key: string };

/** Enough of a commit hash to tell a rewritten history from the one a token came from. */
const KEY_LENGTH = 12;

export type ChangePage = ({ ok: true } & Omit<ChangesResult, 'count' | 'limit'>) | { ok: false; reason: 'invalid_token' | 'expired_token'; message: string };

type Position = { version: number; id: string };

const byVersionThenId = (a: Position, b: Position) => a.version - b.version || compareText(a.id, b.id);

/** `versionKeys`: the key of each version of the history the changes come from (ContentVersion `key`). */
export function compactChangeLog(changes: readonly ReviewChange[], versionKeys: readonly string[], retentionDays = TOMBSTONE_RETENTION_DAYS): ChangeLog {
  const keys = versionKeys.map((key) => key.slice(0, KEY_LENGTH));
  const last = new Map<string, ChangeLogEntry>();
  for (const change of changes) last.set(change.id, change);
  const entries = [...last.values()].sort(byVersionThenId);
  const newest = entries.reduce<string | undefined>((max, e) => (max === undefined || e.time > max ? e.time : max), undefined);
  if (newest === undefined) return { entries, expiredBefore: null, versionKeys: keys };
  const cutoff = new Date(Date.parse(newest) - retentionDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const kept = entries.filter((e) => e.kind !== 'removed' || e.time >= cutoff);
  return { entries: kept, expiredBefore: kept.length === entries.length ? null : cutoff, versionKeys: keys };
}

/** The log of content without a history: each published review added at its `updated`; see the module comment. */
export function createChangeLogWithoutHistory(reviews: readonly PublishedReview[]): ChangeLog {
  const hash = createHash('sha256');
  for (const review of reviews) hash.update(JSON.stringify(review)).update('\n');
  const entries = reviews.map((r): ChangeLogEntry => ({ id: r.id, time: r.updated, kind: 'added', version: 0 })).sort(byVersionThenId);
  return { entries, expiredBefore: null, versionKeys: [hash.digest('hex').slice(0, KEY_LENGTH)] };
}

/**
 * The log as the build stores it beside its files (core/publishing/manifest.ts CHANGE_LOG_FILE): entries
 * as `[version, id, time, kind]`, a third of the bytes of objects at 10,000 reviews.
 */
export const StoredChangeLogSchema = z.strictObject({
  expired_before: z.iso.datetime().nullable(),
  version_keys: z.array(z.string()),
  entries: z.array(z.tuple([z.int().min(0), z.string(), z.iso.datetime(), z.enum(['added', 'changed', 'removed'])])),
});

export function renderChangeLog(log: ChangeLog): string {
  const entries = log.entries.map((e) => JSON.stringify([e.version, e.id, e.time, e.kind]));
  return `{"expired_before":${JSON.stringify(log.expiredBefore)},"version_keys":${JSON.stringify(log.versionKeys)},"entries":[\n${entries.join(',\n')}\n]}\n`;
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
  const parsed = StoredChangeLogSchema.safeParse(json);
  if (!parsed.success) return { ok: false, message: `does not match its schema:\n${z.prettifyError(parsed.error)}` };
  const { expired_before, version_keys, entries } = parsed.data;
  const log: ChangeLog = { expiredBefore: expired_before, versionKeys: version_keys, entries: entries.map(([version, id, time, kind]) => ({ version, id, time, kind })) };
  let upserts = 0;
  for (const entry of log.entries) {
    if (entry.kind === 'removed') continue;
    if (!reviews.has(entry.id)) return { ok: false, message: `lists review ${entry.id} as ${entry.kind}, but the build does not publish it` };
    upserts++;
  }
  if (upserts !== reviews.size) return { ok: false, message: `lists ${upserts} published reviews; the build publishes ${reviews.size}` };
  return { ok: true, log };
}

export function encodeChangeToken(token: Token): string {
  return Buffer.from(JSON.stringify([token.version, token.id, token.time, token.key])).toString('base64url');
}

function decodeChangeToken(text: string): Token | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 4 &&
      Number.isSafeInteger(value[0]) &&
      value[0] >= 0 &&
      typeof value[1] === 'string' &&
      typeof value[2] === 'string' &&
      !Number.isNaN(Date.parse(value[2])) &&
      typeof value[3] === 'string'
    ) {
      return { version: value[0] as number, id: value[1], time: value[2], key: value[3] };
    }
  } catch {
    // not base64url JSON: refused below
  }
  return undefined;
}

/** What a client that lost its place is told to do, whatever the reason. */
const START_AGAIN = 'start again from /reviews.json: replace your copy with it, then read this log from the beginning (leave since out); entries your copy already holds apply again harmlessly.';

/** The entries after `since` (all retained ones without it), at most `limit`, with the current review of each upsert. */
export function readChangePage(log: ChangeLog, reviews: ReadonlyMap<string, PublishedReview>, since: string | undefined, limit: number): ChangePage {
  const token = since === undefined ? undefined : decodeChangeToken(since);
  // The words of every other cursor (core/paging.ts), so a client handles a bad one the same way.
  if (since !== undefined && token === undefined) return { ok: false, reason: 'invalid_token', message: 'is not a cursor this server issued' };
  if (token !== undefined && log.versionKeys[token.version] !== token.key) {
    return { ok: false, reason: 'expired_token', message: `The content's history was rewritten since this token was issued: ${START_AGAIN}` };
  }
  if (token !== undefined && log.expiredBefore !== null && token.time < log.expiredBefore) {
    return { ok: false, reason: 'expired_token', message: `This token is older than the ${TOMBSTONE_RETENTION_DAYS} days of removals the change log keeps: ${START_AGAIN}` };
  }
  const start = token === undefined ? 0 : firstAfter(log.entries, token);
  const slice = log.entries.slice(start, start + limit);
  const changes = slice.map((entry) => {
    if (entry.kind === 'removed') return { id: entry.id, time: entry.time, kind: 'removed' as const };
    // The review's own `updated`, so the log and /reviews.json agree: the change's time, or the review's
    // date when it is dated after the commit that added it (core/content/review-history.ts resolveUpdated).
    const review = reviews.get(entry.id)!;
    return { id: entry.id, time: review.updated, kind: entry.kind, review };
  });
  const last = slice.at(-1);
  const next = last ? encodeChangeToken({ ...last, key: log.versionKeys[last.version] ?? '' }) : (since ?? null);
  return { ok: true, changes, next_token: next, has_more: start + slice.length < log.entries.length };
}

function firstAfter(entries: readonly ChangeLogEntry[], token: Position): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (byVersionThenId(entries[mid]!, token) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
