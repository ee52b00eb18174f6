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
 * - A token is the (version, id, time) of the last entry a client has, opaque (base64url), so paging
 *   never skips or repeats an entry, whatever changes in between (a review changed again moves to the end).
 */
import type { ReviewChange } from '../content/review-history.ts';
import type { PublishedReview } from '../schemas/published.ts';

export const TOMBSTONE_RETENTION_DAYS = 90;

export type ChangeLogEntry = ReviewChange;

export type ChangeLog = {
  entries: ChangeLogEntry[];
  /** Tokens before this time are expired (tombstones before it were dropped); null when none were. */
  expiredBefore: string | null;
};

type Token = { version: number; id: string; time: string };

export type ChangePage =
  | {
      ok: true;
      changes: ({ id: string; time: string; kind: 'added' | 'changed'; review: PublishedReview } | { id: string; time: string; kind: 'removed' })[];
      /** Pass as `since` for what follows; the same token again when nothing is new. */
      next_token: string | null;
      has_more: boolean;
    }
  | { ok: false; reason: 'invalid_token' | 'expired_token'; message: string };

const byVersionThenId = (a: Token, b: Token) => a.version - b.version || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function compactChangeLog(changes: readonly ReviewChange[], retentionDays = TOMBSTONE_RETENTION_DAYS): ChangeLog {
  const last = new Map<string, ChangeLogEntry>();
  for (const change of changes) last.set(change.id, change);
  const entries = [...last.values()].sort(byVersionThenId);
  const newest = entries.reduce<string | undefined>((max, e) => (max === undefined || e.time > max ? e.time : max), undefined);
  if (newest === undefined) return { entries, expiredBefore: null };
  const cutoff = new Date(Date.parse(newest) - retentionDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const kept = entries.filter((e) => e.kind !== 'removed' || e.time >= cutoff);
  return { entries: kept, expiredBefore: kept.length === entries.length ? null : cutoff };
}

export function encodeChangeToken(token: Token): string {
  return Buffer.from(JSON.stringify([token.version, token.id, token.time])).toString('base64url');
}

function decodeChangeToken(text: string): Token | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && Number.isInteger(value[0]) && typeof value[1] === 'string' && typeof value[2] === 'string' && !Number.isNaN(Date.parse(value[2]))) {
      return { version: value[0] as number, id: value[1], time: value[2] };
    }
  } catch {
    // not base64url JSON: refused below
  }
  return undefined;
}

/** The entries after `since` (all retained ones without it), at most `limit`, with the current review of each upsert. */
export function readChangePage(log: ChangeLog, reviews: ReadonlyMap<string, PublishedReview>, since: string | undefined, limit: number): ChangePage {
  const token = since === undefined ? undefined : decodeChangeToken(since);
  if (since !== undefined && token === undefined) {
    return { ok: false, reason: 'invalid_token', message: 'since is not a token this service issued; use next_token of an earlier answer, or leave since out to start from the beginning.' };
  }
  if (token !== undefined && log.expiredBefore !== null && token.time < log.expiredBefore) {
    return {
      ok: false,
      reason: 'expired_token',
      message: `since is older than the ${TOMBSTONE_RETENTION_DAYS} days of removals this log keeps: download /reviews.json again, then follow the changes from its newest entry.`,
    };
  }
  const start = token === undefined ? 0 : firstAfter(log.entries, token);
  const slice = log.entries.slice(start, start + limit);
  const changes = slice.map((entry) => {
    if (entry.kind === 'removed') return { id: entry.id, time: entry.time, kind: 'removed' as const };
    return { id: entry.id, time: entry.time, kind: entry.kind, review: reviews.get(entry.id)! };
  });
  const last = slice.at(-1);
  return { ok: true, changes, next_token: last ? encodeChangeToken(last) : (since ?? null), has_more: start + slice.length < log.entries.length };
}

function firstAfter(entries: readonly ChangeLogEntry[], token: Token): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (byVersionThenId(entries[mid]!, token) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
