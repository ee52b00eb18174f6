/**
 * What a review of the REST lists (search, since) must be, read from what the service serves: the review as
 * /reviews.json holds it, with its `log_entry` last — the `index` line of the review's tlog-proof (the proof
 * of its latest entry), the checkpoint's URL and the proof's URL under the public URL.
 */
import type { PublishedReview, ReviewLogEntry } from '../../core/schemas/published.ts';
import { rawRequest } from './http.ts';

/** Each review's log_entry by id, from its served proof; `serverUrl` is where the service listens. */
export async function readLogEntries(serverUrl: string, publicUrl: string, ids: readonly string[]): Promise<Map<string, ReviewLogEntry>> {
  const entries = new Map<string, ReviewLogEntry>();
  for (const id of ids) {
    const res = await rawRequest(`${serverUrl}/log/proof/${id}.tlog-proof`);
    const index = /^index (\d+)$/m.exec(res.body.toString('utf8'));
    if (res.status !== 200 || index === null) throw new Error(`no tlog-proof for ${id} (status ${res.status})`);
    entries.set(id, { index: Number(index[1]), checkpoint_url: `${publicUrl}/log/checkpoint`, proof_url: `${publicUrl}/log/proof/${id}.tlog-proof` });
  }
  return entries;
}

/** The reviews as the REST lists give them, every one of them in the log. */
export function listed(reviews: readonly PublishedReview[], entries: ReadonlyMap<string, ReviewLogEntry>): (PublishedReview & { log_entry: ReviewLogEntry })[] {
  return reviews.map((review) => {
    const entry = entries.get(review.id);
    if (entry === undefined) throw new Error(`no log_entry read for ${review.id}`);
    return { ...review, log_entry: entry };
  });
}
