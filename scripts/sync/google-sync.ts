/**
 * The Google sync source: the reviews of each location from the Business Profile API
 * (`accounts.locations.reviews.list`, v4), newest change first (`orderBy=updateTime desc`, 50 a page),
 * mapped by the Google import format's own mapper (scripts/import/google.ts), so a synced review is
 * exactly the review `npm run import -- google` makes of the same page.
 *
 * Which locations: GOOGLE_LOCATION's (`all`: every one the token reads), else the `google_location`s that
 * business.json lists. Each is read in turn, with a stop point of its own.
 *
 * Incremental: reading a location stops at the first page that reaches the newest change the content
 * already has from it.
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
import { createGoogleApi, type GoogleApi } from './google-api.ts';
import { authorizeGoogle, googleCredentials, listGoogleLocations, readGoogleLocations } from './google-authorize.ts';
import { readBusinessFile } from '../import/import-fs.ts';
import { locationPart } from '../import/review-locations.ts';
import type { BusinessContent } from '../../core/schemas/content.ts';
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
  const credentials = await googleCredentials(request.config);
  const business = await readBusinessFile(request.contentDir);
  const listed = googleLocationsOf(business);
  const wanted = request.config.google.locations ?? (listed.length > 0 ? listed : undefined);
  const missing = [...(credentials.ok ? [] : credentials.missing), ...(wanted === undefined ? ['GOOGLE_LOCATION'] : [])];
  if (!credentials.ok || missing.length > 0) return { ok: false, message: `set ${missing.join(', ')} (or the locations' google_location in business.json): see docs/import.md "Sync"` };
  const api = createGoogleApi(credentials.value, request);
  try {
    let locations = wanted as readonly string[];
    if (wanted === 'all') {
      const found = await readGoogleLocations(api, request.config.google);
      if (!found.ok) return { ok: false, message: `listing the locations (GOOGLE_LOCATION=all): ${found.message}` };
      if (found.value.length === 0) return { ok: false, message: 'GOOGLE_LOCATION=all, but the token reads no location' };
      locations = found.value.map((l) => l.name);
    }
    const readings: LocationReading[] = [];
    for (const location of locations) {
      const since = request.since?.byTarget.get(location) ?? (locations.length === 1 ? request.since?.unnamed : undefined);
      const reading = await readLocation(api, request, location, since);
      if (!reading.ok) return locations.length === 1 ? reading : { ok: false, message: `${location}: ${reading.message}` };
      readings.push(reading);
    }
    const unlisted = readings.flatMap((r) => (r.listing.complete ? [] : [locations.length === 1 ? r.listing.why : `${r.location}: ${r.listing.why}`]));
    return {
      ok: true,
      mapped: readings.flatMap((r) => r.mapped),
      pagesRead: readings.reduce((sum, r) => sum + r.pagesRead, 0),
      newest: new Map(readings.flatMap((r) => (r.newest === undefined ? [] : [[r.location, r.newest] as const]))),
      listing: unlisted.length === 0 ? { complete: true } : { complete: false, why: unlisted.join('; ') },
      listedScope: scopeOfLocations(business, locations),
    };
  } finally {
    api.close();
  }
}

type LocationReading = { ok: true; location: string; mapped: MappedExport[]; pagesRead: number; newest?: string; listing: SyncReading['listing'] };

/** One location's reviews, newest change first, down to `since` (every page with `full`). */
async function readLocation(api: GoogleApi, request: SyncRequest, location: string, sinceText: string | undefined): Promise<LocationReading | SyncFailure> {
  const mapped: MappedExport[] = [];
  const since = sinceText === undefined ? undefined : Date.parse(sinceText);
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
    const url = `${request.config.google.apiUrl}/${location}/reviews?${query}`;
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
  return { ok: true, location, mapped, pagesRead, newest: newest?.text, listing: listingOf(request.full, pageToken, listed.size, total) };
}

function listingOf(full: boolean, pageToken: string | undefined, listed: number, total: number | undefined): SyncReading['listing'] {
  if (!full) return { complete: false, why: 'only the new changes were read (--full reads every page)' };
  if (pageToken !== undefined) return { complete: false, why: 'the listing stopped before its last page' };
  if (total === undefined) return { complete: false, why: 'Google gave no totalReviewCount to check the listing against' };
  if (listed !== total) return { complete: false, why: `Google listed ${listed} reviews but counts ${total}` };
  return { complete: true };
}

/** The `google_location`s business.json lists in full (`accounts/…/locations/…`, the form the v4 API reads). */
function googleLocationsOf(business: unknown): string[] {
  const locations = (business as Partial<BusinessContent> | undefined)?.locations;
  if (!Array.isArray(locations)) return [];
  return locations.flatMap((l) => (typeof l?.google_location === 'string' && l.google_location.startsWith('accounts/') ? [l.google_location] : []));
}

/**
 * What a complete listing of `read` speaks for, in a business with locations: the reviews of the
 * business.json locations read (compared by their `locations/…` part, as the importer places them), so
 * that a sync of one shop never withdraws another's. A business without locations: every Google review.
 */
function scopeOfLocations(business: unknown, read: readonly string[]): SyncReading['listedScope'] {
  const locations = (business as Partial<BusinessContent> | undefined)?.locations;
  if (!Array.isArray(locations) || locations.length === 0) return undefined;
  const readParts = new Set(read.map(locationPart));
  const ids = new Set(locations.flatMap((l) => (typeof l?.google_location === 'string' && readParts.has(locationPart(l.google_location)) ? [l.id] : [])));
  return (review) => typeof review.location === 'string' && ids.has(review.location);
}

export const googleSync: SyncSource = {
  name: 'google',
  title: 'Google',
  summary: 'Google Business Profile: the reviews of each location (GOOGLE_LOCATION, else business.json), through the Business Profile API',
  format: googleFormat,
  read: readGoogle,
  authorize: authorizeGoogle,
  listTargets: listGoogleLocations,
};
