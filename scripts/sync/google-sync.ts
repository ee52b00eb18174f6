/**
 * The Google sync source: a location's reviews from the Business Profile API
 * (`accounts.locations.reviews.list`, v4), newest change first (`orderBy=updateTime desc`, 50 a page),
 * mapped by the Google import format's own mapper (scripts/import/google.ts), so a synced review is
 * exactly the review `npm run import -- google` makes of the same page.
 *
 * Incremental: reading stops at the first page that reaches the newest change the content already has.
 * `--full` reads every page; the listing counts as complete only when no page was left unread and the
 * reviews listed match Google's `totalReviewCount` (Google documents that a page may now and then miss
 * a review, and a review missed is never withdrawn).
 *
 * What Google sends is untrusted (issue 43 item 5): a listing that never ends stops the run before it
 * writes anything. A page token seen before would loop; and no listing needs more pages than its
 * `totalReviewCount` fills, ceil(total / 50), plus PAGE_MARGIN for reviews added or edited while it is
 * read (each moves the `updateTime desc` order by one), nor ever more than MAX_PAGES (50,000 reviews),
 * which is also the bound when Google gives no count. Each page is at most the client's
 * maxResponseBytes (google-api.ts).
 */
import { z } from 'zod';
import { googleFormat, mapGoogleExport } from '../import/google.ts';
import type { MappedExport } from '../import/record.ts';
import { createGoogleApi } from './google-api.ts';
import { authorizeGoogle, googleCredentials, listGoogleLocations } from './google-authorize.ts';
import { plural } from '../../core/text/text-rules.ts';
import type { SyncFailure, SyncReading, SyncRequest, SyncSource } from './sync-source.ts';

/** Google's maximum for `accounts.locations.reviews.list`. */
export const PAGE_SIZE = 50;
/** Pages read beyond what `totalReviewCount` fills, for reviews that arrive during the run. */
export const PAGE_MARGIN = 2;
/** No listing is read further than this, whatever Google counts. */
export const MAX_PAGES = 1_000;

/** How many pages a listing of `total` reviews may take. */
export function maxPagesFor(total: number | undefined): number {
  return total === undefined ? MAX_PAGES : Math.min(MAX_PAGES, Math.ceil(total / PAGE_SIZE) + PAGE_MARGIN);
}

const Page = z.looseObject({
  reviews: z.array(z.looseObject({ reviewId: z.string().optional(), updateTime: z.string().optional(), createTime: z.string().optional() })).optional(),
  totalReviewCount: z.number().int().nonnegative().optional(),
  nextPageToken: z.string().optional(),
});

async function readGoogle(request: SyncRequest): Promise<SyncReading | SyncFailure> {
  const google = request.config.google;
  const credentials = await googleCredentials(request.config);
  const missing = [...(credentials.ok ? [] : credentials.missing), ...(google.location === undefined ? ['GOOGLE_LOCATION'] : [])];
  if (!credentials.ok || missing.length > 0) return { ok: false, message: `set ${missing.join(', ')}: see docs/import.md "Sync"` };
  const api = createGoogleApi(credentials.value, request);
  try {
    const mapped: MappedExport[] = [];
    const since = request.since === undefined ? undefined : Date.parse(request.since);
    const listed = new Set<string>();
    let newest: { at: number; text: string } | undefined;
    let total: number | undefined;
    let pageToken: string | undefined;
    let pagesRead = 0;
    let reachedKnown = false;
    // An empty token asks for the first page again.
    const tokensSeen = new Set<string>(['']);
    do {
      if (pagesRead >= maxPagesFor(total)) {
        const counted = total === undefined ? 'Google gives no totalReviewCount' : `Google counts ${plural(total, 'review', { format: String })}`;
        return { ok: false, message: `Google's listing does not end: ${counted}, yet page ${pagesRead} still has a next page; stopped after ${plural(pagesRead, 'page', { format: String })}` };
      }
      const query = new URLSearchParams({ pageSize: String(PAGE_SIZE), orderBy: 'updateTime desc' });
      if (pageToken !== undefined) query.set('pageToken', pageToken);
      const url = `${google.apiUrl}/${google.location}/reviews?${query}`;
      const answer = await api.getJson(url);
      if (!answer.ok) return answer;
      const page = Page.safeParse(answer.value);
      if (!page.success) return { ok: false, message: `reading ${url}: Google's answer is not a page of reviews` };
      pagesRead++;
      const reviews = page.data.reviews ?? [];
      total = page.data.totalReviewCount ?? total;
      const where = `Google page ${pagesRead}`;
      const result = mapGoogleExport(answer.value, where, request.options);
      if ('ok' in result) return { ok: false, message: `${where}: ${result.message}` };
      mapped.push(result);
      for (const review of reviews) {
        if (review.reviewId !== undefined) listed.add(review.reviewId);
        const changed = review.updateTime ?? review.createTime;
        const at = changed === undefined ? NaN : Date.parse(changed);
        if (Number.isNaN(at)) continue;
        if (newest === undefined || at > newest.at) newest = { at, text: changed! };
        if (since !== undefined && at <= since) reachedKnown = true;
      }
      pageToken = page.data.nextPageToken;
      if (pageToken !== undefined && tokensSeen.has(pageToken)) {
        return { ok: false, message: `Google's listing loops: page ${pagesRead} names a next page already read; stopped after ${plural(pagesRead, 'page', { format: String })}` };
      }
      if (pageToken !== undefined) tokensSeen.add(pageToken);
    } while (pageToken !== undefined && (request.full || !reachedKnown));
    return { ok: true, mapped, pagesRead, newest: newest?.text, listing: listingOf(request.full, pageToken, listed.size, total) };
  } finally {
    api.close();
  }
}

function listingOf(full: boolean, pageToken: string | undefined, listed: number, total: number | undefined): SyncReading['listing'] {
  if (!full) return { complete: false, why: 'only the new changes were read (--full reads every page)' };
  if (pageToken !== undefined) return { complete: false, why: 'the listing stopped before its last page' };
  if (total === undefined) return { complete: false, why: 'Google gave no totalReviewCount to check the listing against' };
  if (listed !== total) return { complete: false, why: `Google listed ${listed} reviews but counts ${total}` };
  return { complete: true };
}

export const googleSync: SyncSource = {
  name: 'google',
  title: 'Google',
  summary: 'Google Business Profile: the reviews of GOOGLE_LOCATION, through the Business Profile API',
  format: googleFormat,
  read: readGoogle,
  authorize: authorizeGoogle,
  listTargets: listGoogleLocations,
};
