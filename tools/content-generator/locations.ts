/**
 * The demo's two locations (issue 43 item 6): the Knoxville shop the business has always had, and a
 * Maryville shop for Blount County, each with its own telephone, service areas and Business Profile
 * listing. A review is of the shop that serves its area; a review that names no area is still of the
 * listing it was posted on (Google, Yelp, Facebook and Angi list each shop apart), except one sent
 * through the business's own form, which asks for neither: those few name no location, as in a real
 * business, and show the reviews the business's figures count beside its locations'.
 * The draws come from their own stream, so every other figure of a review stays what it was.
 */
import type { BusinessContent } from '../../core/schemas/content.ts';
import { createRandom, type Random } from './prng.ts';
import { BUSINESS } from './business.ts';

type Location = NonNullable<BusinessContent['locations']>[number];

/** One account, two listings: the resource names Google's API gives a review's `name`. */
const ACCOUNT = 'accounts/104811593772316528413';

export const LOCATIONS: readonly Location[] = [
  {
    id: 'knoxville',
    name: 'Knoxville',
    address: BUSINESS.address,
    telephone: BUSINESS.telephone,
    service_areas: ['Knoxville', 'Farragut', 'Oak Ridge', 'Powell', 'Lenoir City'],
    google_location: `${ACCOUNT}/locations/11738262413573542817`,
  },
  {
    id: 'maryville',
    name: 'Maryville',
    address: { street: '1608 W Lamar Alexander Pkwy', locality: 'Maryville', region: 'TN', postal_code: '37801', country: 'US' },
    telephone: '+1-865-555-0187',
    service_areas: ['Maryville', 'Alcoa', 'Seymour'],
    google_location: `${ACCOUNT}/locations/6029815544310297415`,
  },
];

/** The demo business as business.json lists it: every service area is one shop's. */
export const DEMO_BUSINESS: BusinessContent = { ...BUSINESS, locations: [...LOCATIONS] };

/** Where a review without an area was posted: the shops' shares of the reviews that name one (68 to 25). */
const LISTING_SHARES = [['knoxville', 68], ['maryville', 25]] as const;

/** The month's stream of location draws. */
export function createLocationRandom(seed: string, month: string): Random {
  return createRandom(`${seed}|${month}|locations`);
}

/** The telephone of a location as the owner writes it in a reply: "(865) 555-0187". */
export function writePhoneOf(id: string): string {
  const [, area, exchange, line] = /^\+1-(\d{3})-(\d{3})-(\d{4})$/.exec(LOCATIONS.find((l) => l.id === id)!.telephone!)!;
  return `(${area}) ${exchange}-${line}`;
}

/** The id of the review's location, or undefined for a direct review that names no area. */
export function placeReview(area: string | undefined, source: string, rng: Random): string | undefined {
  if (area !== undefined) return LOCATIONS.find((l) => l.service_areas!.includes(area))!.id;
  return source === 'direct' ? undefined : rng.weighted(LISTING_SHARES);
}
