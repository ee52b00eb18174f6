/**
 * A review's `log_entry` (ReviewLogEntrySchema), by one rule wherever it is given (MCP `get_review`, the
 * REST search and since lists, live or prerendered): the position of the review's latest entry in the
 * review log, the checkpoint's URL and the review's tlog-proof URL (docs/verification.md "A proof for every
 * review"); none for a review not in the log.
 */
import type { ReviewLogEntry } from '../schemas/published.ts';
import { PATHS, type ServiceUrls } from '../urls.ts';
import type { ChangeLog } from './change-log.ts';
import type { LiveData } from './live-data.ts';

/** A review's log_entry by its id; undefined for a review not in the log. */
export type LogEntryLookup = (id: string) => ReviewLogEntry | undefined;

/** `latest`: each review's latest entry in the review log, by id; undefined for a build without a review log. */
export function createLogEntryLookup(latest: ReadonlyMap<string, number> | undefined, urls: ServiceUrls): LogEntryLookup {
  const checkpointUrl = urls.absolute(PATHS.logCheckpoint);
  return (id) => {
    const index = latest?.get(id);
    return index === undefined ? undefined : { index, checkpoint_url: checkpointUrl, proof_url: urls.logProof(id) };
  };
}

/** Each review's latest entry, from a change log (one entry per review, its last); undefined when it is not a review log's. */
export function latestEntriesOf(log: ChangeLog): ReadonlyMap<string, number> | undefined {
  // A change log without history (`checks` empty) numbers the reviews, not entries of a review log.
  if (log.checks === '') return undefined;
  return new Map(log.entries.map((e) => [e.id, e.index]));
}

const lookups = new WeakMap<LiveData, LogEntryLookup>();

/** The lookup of a build's live data, made once per build. */
export function logEntryLookupOf(live: LiveData): LogEntryLookup {
  let lookup = lookups.get(live);
  if (lookup === undefined) lookups.set(live, (lookup = createLogEntryLookup(latestEntriesOf(live.changes), live.urls)));
  return lookup;
}
