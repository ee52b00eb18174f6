/**
 * The receipt page's look-up files (issue 42 item 3, docs/verification.md "Jobs and receipts"), computed
 * from the log's entries alone, and the check the page makes with a receipt code.
 *
 * - `log/jobs/<xx>.json`, where `xx` is the first two hex characters of a locator: one JSON object per
 *   shard, keyed by locator, holding each locator's latest `job` entry as `{ locator, entry, time, week,
 *   service, area, commitment }` (`entry` its index in the log, `area` null when none). A shard exists
 *   only when a job entry falls in it. Everything in it is in the log already; the files only spare a
 *   browser reading the whole log to find one entry.
 * - The check: the code's check character first (a mistyped code never reaches the network), then the
 *   locator, its shard, and the commitment recomputed for each of the seven days of the entry's ISO week
 *   (a commitment binds the day, the entry says only the week).
 *
 * No zod here: the page's script stays small (like proof-check.ts), so a shard is read by hand.
 */
import type { LogEntry } from './entry.ts';
import { datesOfIsoWeek, jobCommitment, jobLocator, jobShardOf, parseReceiptCode, type Hash } from './job.ts';

/** One locator's latest `job` entry, as its shard serves it. */
export type JobLookupRecord = {
  locator: string;
  entry: number;
  time: string;
  week: string;
  service: string;
  area: string | null;
  commitment: string;
};

/** Each shard's file, by shard (`3f`), as the bytes the build writes: locators sorted, so every build agrees. */
export function buildJobLookup(entries: readonly LogEntry[]): Map<string, string> {
  const latest = new Map<string, JobLookupRecord>();
  entries.forEach((e, entry) => {
    if (e.action !== 'job') return;
    latest.set(e.locator, { locator: e.locator, entry, time: e.time, week: e.week, service: e.service, area: e.area ?? null, commitment: e.commitment });
  });
  const shards = new Map<string, Record<string, JobLookupRecord>>();
  for (const locator of [...latest.keys()].sort()) {
    const shard = jobShardOf(locator);
    if (!shards.has(shard)) shards.set(shard, {});
    shards.get(shard)![locator] = latest.get(locator)!;
  }
  return new Map([...shards].map(([shard, records]) => [shard, `${JSON.stringify(records)}\n`]));
}

const isText = (v: unknown) => typeof v === 'string';

/** The record of `locator` in a shard's text; undefined when the shard does not hold it or is not one. */
export function findJobRecord(shardText: string, locator: string): JobLookupRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(shardText);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || !Object.hasOwn(json, locator)) return undefined;
  const r = (json as Record<string, unknown>)[locator] as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null || r.locator !== locator || !Number.isSafeInteger(r.entry) || (r.entry as number) < 0) return undefined;
  if (![r.time, r.week, r.service, r.commitment].every(isText) || !(r.area === null || isText(r.area))) return undefined;
  return r as unknown as JobLookupRecord;
}

export type ReceiptCheck =
  | { verdict: 'found'; record: JobLookupRecord; completed: string }
  | { verdict: 'not-found'; reason: 'mistyped'; detail: string }
  | { verdict: 'not-found'; reason: 'absent' | 'mismatch' }
  | { verdict: 'not-found'; reason: 'unavailable'; status: number };

/**
 * Checks a receipt code against the site's look-up files. `fetchShard` answers a shard's status and text
 * (404 when the site has no such shard).
 */
export async function checkReceipt(code: string, fetchShard: (shard: string) => Promise<{ status: number; text: string }>, hash: Hash): Promise<ReceiptCheck> {
  const parsed = parseReceiptCode(code);
  if (!parsed.ok) return { verdict: 'not-found', reason: 'mistyped', detail: parsed.reason };
  const locator = jobLocator(parsed.secret, hash);
  const shard = await fetchShard(jobShardOf(locator));
  if (shard.status === 404) return { verdict: 'not-found', reason: 'absent' };
  if (shard.status !== 200) return { verdict: 'not-found', reason: 'unavailable', status: shard.status };
  const record = findJobRecord(shard.text, locator);
  if (record === undefined) return { verdict: 'not-found', reason: 'absent' };
  const area = record.area ?? undefined;
  const completed = datesOfIsoWeek(record.week).find((day) => jobCommitment({ secret: parsed.secret, completed: day, service: record.service, area }, hash) === record.commitment);
  return completed === undefined ? { verdict: 'not-found', reason: 'mismatch' } : { verdict: 'found', record, completed };
}
