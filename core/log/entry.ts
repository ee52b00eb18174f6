/**
 * One entry of the review log (issue 27 item 2, issue 40 item 1): one change of the published set, as
 * compact UTF-8 JSON. No entry holds a review's words or its author's name.
 *
 * - `publish` and `update` carry `digest`, the base64 SHA-256 of the RFC 8785 form of the review's own
 *   fields (REVIEW_DIGEST_FIELDS) as /reviews.json serves them, and since issue 40 `words` and `reply`,
 *   the same over its words (`text`, `title`) and over its owner reply alone, so that anyone can tell
 *   from two entries of a review what changed between them.
 * - `update` says what kind of change it is (`change`): `reply` (only the owner's reply was added, changed
 *   or removed), `at_source` (a review from another platform, changed there), `correction` (the owner's
 *   own change). When the rating changed it carries the rating it replaced (`previous_rating`), and a
 *   correction of the rating carries the owner's `reason` (corrections.json, `other` when none given),
 *   as a withdrawal does.
 * - `withdraw` carries `reason`.
 * - `job` (issue 42) logs a completed job, by the next publish that sees it: its `commitment` and
 *   `locator` (core/log/job.ts) and only its coarse public facts, the ISO `week`, the `service` id and the
 *   service `area`. It names no review. A `publish` or `update` of a review tied to a job carries `job`,
 *   the job entry's index; an update that only ties a review to a job, or another one, says `change: "job"`.
 * Entries written before issue 40 have no `words`, `reply` or `change`; they stay valid.
 */
import { z } from 'zod';
import { CorrectionReasonSchema, WITHDRAW_REASONS, WithdrawReasonSchema } from './reasons.ts';

export { digestReview, digestReviewParts, REVIEW_DIGEST_FIELDS } from './review-digest.ts';

/** An entry with a 200-character id and a time to the nanosecond is 541 bytes: anything far longer is not an entry. */
export const MAX_LOG_ENTRY_BYTES = 1024;

const REVIEW_ID = /^[a-z0-9-]+$/;
const DIGEST = /^[A-Za-z0-9+/]{43}=$/;
const Rating = z.int().min(1).max(5);
const common = {
  review_id: z.string().max(200).regex(REVIEW_ID),
  time: z.iso.datetime().meta({ description: 'When the change was published (RFC 3339, UTC).' }),
  date: z.iso.date().meta({ description: 'The review\'s own date; never changes.' }),
  rating: Rating,
};
const Digest = z.string().regex(DIGEST, 'must be a base64 SHA-256');
const parts = {
  words: Digest.optional().meta({ description: 'Digest of the review\'s words (`text`, `title`).' }),
  reply: Digest.optional().meta({ description: 'Digest of the owner\'s reply (`response`, null included).' }),
  job: z.int().min(0).optional().meta({ description: 'The index of the `job` entry of the job this review is about.' }),
};

export const UPDATE_CHANGES = ['reply', 'at_source', 'correction', 'job'] as const;
export const UpdateChangeSchema = z.enum(UPDATE_CHANGES);
export type UpdateChange = z.infer<typeof UpdateChangeSchema>;

export const LogEntrySchema = z
  .discriminatedUnion('action', [
    z.strictObject({ action: z.literal('publish'), ...common, digest: Digest, ...parts }),
    z.strictObject({
      action: z.literal('update'),
      ...common,
      digest: Digest,
      ...parts,
      change: UpdateChangeSchema.optional().meta({ description: 'What kind of change: the owner\'s reply, an edit at the source, the owner\'s correction.' }),
      previous_rating: Rating.optional().meta({ description: 'The rating this update replaced; only when it changed.' }),
      reason: CorrectionReasonSchema.optional().meta({ description: 'Why the owner corrected the rating.' }),
    }),
    z.strictObject({ action: z.literal('withdraw'), ...common, reason: WithdrawReasonSchema }),
    z.strictObject({
      action: z.literal('job'),
      time: common.time,
      week: z.string().regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/, 'must be an ISO week, YYYY-Www').meta({ description: 'The ISO week the job was completed.' }),
      service: z.string().max(200).regex(REVIEW_ID).meta({ description: 'The service id.' }),
      area: z.string().min(1).max(200).optional().meta({ description: 'The service area.' }),
      locator: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 hex characters').meta({ description: 'Finds the entry from a receipt code.' }),
      commitment: Digest.meta({ description: 'SHA-256 of the job\'s secret and fields (docs/verification.md).' }),
    }),
  ])
  .superRefine((e, ctx) => {
    if (e.action === 'withdraw' || e.action === 'job') return;
    if ((e.words === undefined) !== (e.reply === undefined)) ctx.addIssue({ code: 'custom', path: ['words'], message: '`words` and `reply` come together' });
    if (e.action !== 'update') return;
    // An entry from before issue 40 has none of these; a later one has all that apply.
    if ((e.change === undefined) !== (e.words === undefined)) ctx.addIssue({ code: 'custom', path: ['change'], message: 'an update with `words` says its `change`, and only then' });
    if (e.previous_rating !== undefined && e.previous_rating === e.rating) ctx.addIssue({ code: 'custom', path: ['previous_rating'], message: 'is given only when the rating changed' });
    if (e.previous_rating !== undefined && e.change === 'reply') ctx.addIssue({ code: 'custom', path: ['change'], message: 'a change of the rating is not a reply' });
    const needsReason = e.change === 'correction' && e.previous_rating !== undefined;
    if (needsReason !== (e.reason !== undefined)) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'a correction of the rating has a reason, and nothing else does' });
  });
export type LogEntry = z.infer<typeof LogEntrySchema>;
/** An entry about a review: all but `job`. */
export type ReviewLogEntry = Exclude<LogEntry, { action: 'job' }>;
export type JobLogEntry = Extract<LogEntry, { action: 'job' }>;
export const isReviewEntry = (e: LogEntry): e is ReviewLogEntry => e.action !== 'job';

/** The entry's bytes: compact JSON in a fixed member order. */
export function encodeLogEntry(entry: LogEntry): Buffer {
  if (entry.action === 'job') {
    const { action, time, week, service, area, locator, commitment } = entry;
    return Buffer.from(JSON.stringify({ action, time, week, service, area, locator, commitment }), 'utf8');
  }
  const { action, review_id, time, date, rating } = entry;
  let tail: object;
  if (entry.action === 'withdraw') tail = { reason: entry.reason };
  else {
    const { digest, words, reply, job } = entry;
    tail = { digest, words, reply, job };
    if (entry.action === 'update') tail = { ...tail, change: entry.change, previous_rating: entry.previous_rating, reason: entry.reason };
  }
  // JSON.stringify leaves out the members that are undefined.
  return Buffer.from(JSON.stringify({ action, review_id, time, date, rating, ...tail }), 'utf8');
}

export type DecodedEntry = { ok: true; value: LogEntry } | { ok: false; reason: string };

/** Reads an entry's bytes with LogEntrySchema; a reason when they are not one. */
export function decodeLogEntry(bytes: Uint8Array): DecodedEntry {
  if (bytes.length > MAX_LOG_ENTRY_BYTES) return { ok: false, reason: `it is ${bytes.length} bytes long, no entry is over ${MAX_LOG_ENTRY_BYTES}` };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { ok: false, reason: 'it is not JSON' };
  }
  // A build reads every entry of the log it continues: the checks below are LogEntrySchema's for the
  // common forms, made without it (several times faster); whatever they do not accept, the schema judges.
  if (isPlainLogEntry(json)) return { ok: true, value: json };
  const parsed = LogEntrySchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  // zod's own words: core/log stays free of the API's error shapes (core/schemas), and so does npm run verify.
  return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.length === 0 ? 'the entry' : i.path.join('.')}: ${i.message}`).join('; ') };
}

const DATE = z.regexes.date;
const DATETIME = z.regexes.datetime({});
const REASONS: ReadonlySet<unknown> = new Set(WITHDRAW_REASONS);
const isDigest = (v: unknown) => typeof v === 'string' && DIGEST.test(v);

/**
 * What LogEntrySchema accepts, no more, for a withdrawal, a publish, and an update from before issue 40:
 * the members of one form exactly, each as the schema checks it. Other forms go to the schema.
 */
function isPlainLogEntry(json: unknown): json is LogEntry {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const e = json as Record<string, unknown>;
  const keys = Object.keys(e).length;
  let tail: boolean;
  if (e.action === 'withdraw') tail = keys === 6 && REASONS.has(e.reason);
  else if (e.action === 'publish' && keys === 8) tail = isDigest(e.digest) && isDigest(e.words) && isDigest(e.reply);
  else tail = keys === 6 && (e.action === 'publish' || e.action === 'update') && isDigest(e.digest);
  return (
    tail &&
    typeof e.review_id === 'string' && e.review_id.length <= 200 && REVIEW_ID.test(e.review_id) &&
    typeof e.time === 'string' && DATETIME.test(e.time) &&
    typeof e.date === 'string' && DATE.test(e.date) &&
    Number.isSafeInteger(e.rating) && (e.rating as number) >= 1 && (e.rating as number) <= 5
  );
}

/** Where each review stands after the entries, in log order: its latest entry and its position. */
export type ReviewLogState = { latest: ReviewLogEntry; index: number; first_index: number };

export function replayLog(entries: readonly LogEntry[]): Map<string, ReviewLogState> {
  const state = new Map<string, ReviewLogState>();
  entries.forEach((entry, index) => {
    if (entry.action === 'job') return;
    const before = state.get(entry.review_id);
    state.set(entry.review_id, { latest: entry, index, first_index: before?.first_index ?? index });
  });
  return state;
}
