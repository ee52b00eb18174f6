/**
 * One entry of the review log (issue 27 item 2): one change of the published set, as compact UTF-8 JSON.
 * `publish` and `update` carry `digest`, the base64 SHA-256 of the RFC 8785 form of the review's own fields
 * (REVIEW_DIGEST_FIELDS) as /reviews.json serves them; `withdraw` carries `reason`. No entry holds a
 * review's words or its author's name.
 */
import { z } from 'zod';
import { formatIssue, parseWithIssues } from '../schemas/issues.ts';
import { WITHDRAW_REASONS, WithdrawReasonSchema } from '../schemas/content.ts';

export { digestReview, REVIEW_DIGEST_FIELDS } from './review-digest.ts';

const REVIEW_ID = /^[a-z0-9-]+$/;
const DIGEST = /^[A-Za-z0-9+/]{43}=$/;
const common = {
  review_id: z.string().regex(REVIEW_ID),
  time: z.iso.datetime().meta({ description: 'When the change was published (RFC 3339, UTC).' }),
  date: z.iso.date(),
  rating: z.int().min(1).max(5),
};
const Digest = z.string().regex(DIGEST, 'must be a base64 SHA-256');

export const LogEntrySchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.enum(['publish', 'update']), ...common, digest: Digest }),
  z.strictObject({ action: z.literal('withdraw'), ...common, reason: WithdrawReasonSchema }),
]);
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** The entry's bytes: compact JSON in a fixed member order. */
export function encodeLogEntry(entry: LogEntry): Buffer {
  const { action, review_id, time, date, rating } = entry;
  const tail = entry.action === 'withdraw' ? { reason: entry.reason } : { digest: entry.digest };
  return Buffer.from(JSON.stringify({ action, review_id, time, date, rating, ...tail }), 'utf8');
}

/** Reads an entry's bytes; a reason when they are not one. */
export function decodeLogEntry(bytes: Uint8Array): { ok: true; value: LogEntry } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { ok: false, reason: 'it is not JSON' };
  }
  // A build reads every entry of the log it continues: the checks below are LogEntrySchema's, made
  // without it (several times faster); whatever they do not accept, the schema says what is wrong with.
  if (isLogEntry(json)) return { ok: true, value: json };
  const parsed = parseWithIssues(LogEntrySchema, json);
  return parsed.ok ? parsed : { ok: false, reason: parsed.issues.map(formatIssue).join('; ') };
}

const ENTRY_KEYS = 6;
const DATE = z.regexes.date;
const DATETIME = z.regexes.datetime({});
const REASONS: ReadonlySet<unknown> = new Set(WITHDRAW_REASONS);

/** What LogEntrySchema accepts, no more: the members of one action exactly, each as the schema checks it. */
function isLogEntry(json: unknown): json is LogEntry {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || Object.keys(json).length !== ENTRY_KEYS) return false;
  const e = json as Record<string, unknown>;
  const tail = e.action === 'withdraw' ? REASONS.has(e.reason) : (e.action === 'publish' || e.action === 'update') && typeof e.digest === 'string' && DIGEST.test(e.digest);
  return (
    tail &&
    typeof e.review_id === 'string' && REVIEW_ID.test(e.review_id) &&
    typeof e.time === 'string' && DATETIME.test(e.time) &&
    typeof e.date === 'string' && DATE.test(e.date) &&
    Number.isSafeInteger(e.rating) && (e.rating as number) >= 1 && (e.rating as number) <= 5
  );
}

/** Where each review stands after the entries, in log order: its latest entry and its position. */
export type ReviewLogState = { latest: LogEntry; index: number; first_index: number };

export function replayLog(entries: readonly LogEntry[]): Map<string, ReviewLogState> {
  const state = new Map<string, ReviewLogState>();
  entries.forEach((entry, index) => {
    const before = state.get(entry.review_id);
    state.set(entry.review_id, { latest: entry, index, first_index: before?.first_index ?? index });
  });
  return state;
}
