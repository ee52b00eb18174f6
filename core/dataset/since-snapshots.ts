/**
 * Which since dates the static build prerenders. Clients ask "since my last sync", so recent days
 * are what matter: every calendar day from the newest review back up to SNAPSHOT_DAYS days, while
 * the snapshots together stay within SNAPSHOT_BUDGET_FACTOR × the size of /reviews.json. Any other
 * date is answered live by the sidecar with the same bytes.
 */
import { countSince } from '../order.ts';
import { listedReviewJson, type ReviewJsonCache } from './render-json.ts';
import type { LogEntryLookup } from './review-log-entry.ts';

export const SNAPSHOT_DAYS = 60;
export const SNAPSHOT_BUDGET_FACTOR = 2;

export function selectSinceSnapshotDates(cache: ReviewJsonCache, datasetBytes: number, logEntryOf: LogEntryLookup): string[] {
  const reviews = cache.reviews;
  if (reviews.length === 0) return [];
  const budget = SNAPSHOT_BUDGET_FACTOR * datasetBytes;
  const dates: string[] = [];
  let spent = 0;
  let prefixBytes = 0;
  let count = 0;
  let day = reviews[0]!.date;
  for (let i = 0; i < SNAPSHOT_DAYS; i++) {
    const since = countSince(reviews, day);
    while (count < since) prefixBytes += Buffer.byteLength(listedReviewJson(cache, count++, logEntryOf)) + 1;
    spent += prefixBytes + 40;
    if (spent > budget) break;
    dates.push(day);
    day = addDays(day, -1);
  }
  return dates;
}

export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
