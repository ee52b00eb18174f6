/**
 * When each review last changed (issue 23 item 3), derived from the history of the content folder so
 * that the same history gives the same times on any machine.
 *
 * The history is a list of versions, oldest first, each with its time (a commit's committer date) and
 * the fingerprint of every published review it holds: a hash of the review as written in the content
 * (text, rating, title, reply, tags, media, source…), present only while `verified` is true. A review's
 * `updated` is the time of the last version whose fingerprint of it differs from the version before;
 * one that disappears (removed, or hidden with `verified: false`) has a removal at that time. Times are
 * clamped to never run backwards (commit dates may), so `updated` never moves backwards either, and a
 * version that changes nothing changes no time.
 */
import { getLatestChange } from '../review-changes.ts';
import { createHash } from 'node:crypto';
import { compareText } from '../text/text-rules.ts';

export type ContentVersion = {
  /** RFC 3339 time of the version (a commit's committer date). */
  time: string;
  /** What names this version in its history (a commit hash): change-log tokens carry it (core/dataset/change-log.ts). */
  key: string;
  /**
   * What this version changed: the new fingerprint of each review it wrote, or null for each it
   * removed or hid. An id may be listed with an unchanged fingerprint (a file rewritten as it was):
   * that changes nothing.
   */
  delta: ReadonlyMap<string, string | null>;
};

/** `version`: the index of the version that made the change, which orders changes even where times are equal. */
export type ReviewChange = { id: string; time: string; kind: 'added' | 'changed' | 'removed'; version: number };

export type ReviewTimes = {
  /** Each review's last change, for the reviews of the last version. */
  updated: Map<string, string>;
  /** Every change, oldest first (a review's changes in the order of the versions). */
  changes: ReviewChange[];
};

/** The fingerprint of a review as written in the content: canonical JSON (sorted keys), hashed. */
export function fingerprintReview(review: object): string {
  return createHash('sha256').update(canonicalJson(review)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => compareText(a, b)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fingerprints of the published (verified) reviews among `reviews`, by id. */
export function fingerprintPublished(reviews: readonly { id: string; verified: boolean }[]): Map<string, string> {
  return new Map(reviews.filter((r) => r.verified).map((r) => [r.id, fingerprintReview(r)]));
}

/** The delta that turns the published reviews `before` into `after`. */
export function diffFingerprints(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): Map<string, string | null> {
  const delta = new Map<string, string | null>();
  for (const [id, fingerprint] of after) if (before.get(id) !== fingerprint) delta.set(id, fingerprint);
  for (const id of before.keys()) if (!after.has(id)) delta.set(id, null);
  return delta;
}

/** Replays the versions, oldest first; see the module comment. */
export function deriveReviewTimes(versions: Iterable<ContentVersion>): ReviewTimes {
  const current = new Map<string, string>();
  const updated = new Map<string, string>();
  const changes: ReviewChange[] = [];
  let clock = '';
  let index = -1;
  for (const version of versions) {
    index++;
    const time = normaliseTime(version.time);
    if (time > clock) clock = time;
    for (const [id, fingerprint] of version.delta) {
      const before = current.get(id);
      if (before === (fingerprint ?? undefined)) continue;
      if (fingerprint === null) {
        current.delete(id);
        updated.delete(id);
        changes.push({ id, time: clock, kind: 'removed', version: index });
      } else {
        current.set(id, fingerprint);
        updated.set(id, clock);
        changes.push({ id, time: clock, kind: before === undefined ? 'added' : 'changed', version: index });
      }
    }
  }
  return { updated, changes };
}

/**
 * A review's `updated`: its last change in the history, never earlier than the midnight (UTC) of its
 * own date or its owner reply's; without a history, that midnight.
 */
export function resolveUpdated(review: { date: string; response?: { date: string } | null }, changedAt: string | undefined): string {
  const floor = `${getLatestChange(review)}T00:00:00Z`;
  return changedAt !== undefined && changedAt > floor ? changedAt : floor;
}

/** `2026-11-14T09:30:00+01:00` → `2026-11-14T08:30:00Z`: one zone and no fraction, so times compare as strings. */
function normaliseTime(time: string): string {
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
