/**
 * The content of the location tests (issue 43): the small test content with two locations added and six
 * of its reviews placed, written the same way by every suite, so a run builds it once
 * (tests/helpers/site-build.ts shares a build per distinct site). Not a test file.
 */
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

export const LOCATIONS = [
  {
    id: 'springfield',
    name: 'Springfield shop',
    address: { street: '12 Elm St', locality: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
    telephone: '+1-555-010-2000',
    service_areas: ['Springfield', 'Rochester'],
    google_location: 'accounts/1/locations/10',
  },
  { id: 'chatham', name: 'Chatham shop', telephone: '+1-555-010-3000' },
];

/** Which review is where; r-0004 is unverified, r-0007 and r-0008 name no location. */
export const PLACED: Record<string, string> = { 'r-0001': 'springfield', 'r-0003': 'springfield', 'r-0004': 'springfield', 'r-0005': 'springfield', 'r-0002': 'chatham', 'r-0006': 'chatham' };

export type ContentReview = { id: string; rating: number; date: string; verified: boolean; location?: string };
export type Figures = { rating_value: number; review_count: number; distribution: Record<string, number> };

/** Copies the small content into `contentDir` with the locations and placements above; returns its reviews as written. */
export async function writeTwoLocationContent(contentDir: string): Promise<ContentReview[]> {
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  const businessFile = path.join(contentDir, 'business.json');
  await writeFile(businessFile, JSON.stringify({ ...JSON.parse(await readFile(businessFile, 'utf8')), locations: LOCATIONS }));
  const written: ContentReview[] = [];
  for (const name of await readdir(path.join(contentDir, 'reviews'))) {
    const file = path.join(contentDir, 'reviews', name);
    const reviews = (JSON.parse(await readFile(file, 'utf8')) as ContentReview[]).map((r) => (PLACED[r.id] ? { ...r, location: PLACED[r.id] } : r));
    await writeFile(file, JSON.stringify(reviews));
    written.push(...reviews);
  }
  return written;
}

/** The figures counted straight from the content files: verified reviews, mean rounded to 2 decimals. */
export function countContentReviews(contentReviews: readonly ContentReview[], filter: (r: ContentReview) => boolean): Figures {
  const reviews = contentReviews.filter((r) => r.verified && filter(r));
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } as Record<string, number>;
  for (const r of reviews) distribution[String(r.rating)]!++;
  const mean = reviews.length === 0 ? 0 : reviews.reduce((s, r) => s + r.rating, 0) / reviews.length;
  return { rating_value: Math.round(mean * 100) / 100, review_count: reviews.length, distribution };
}

/** The ids of the verified reviews of a location, from the content files, newest first (date descending, then id). */
export function listLocationIds(contentReviews: readonly ContentReview[], location: string): string[] {
  return contentReviews
    .filter((r) => r.verified && r.location === location)
    .sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id))
    .map((r) => r.id);
}
