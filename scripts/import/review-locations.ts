/**
 * The location of an imported review (issue 43): the business.json location whose `google_location`
 * is the place the platform filed the review under, or whose id or name a CSV's location column gives.
 * Google names a location `accounts/{a}/locations/{l}` in the v4 API and `locations/{l}` in the newer
 * ones, so the two are compared by their `locations/{l}` part.
 */
import type { BusinessContent } from '../../core/schemas/content.ts';
import type { ImportedReview } from './record.ts';

export const locationPart = (name: string) => name.slice(name.lastIndexOf('locations/'));
/** A location's id or name as a CSV may write it: case and surrounding or repeated spaces do not matter. */
const labelKey = (label: string) => `label:${label.trim().replace(/\s+/g, ' ').toLowerCase()}`;

/**
 * The reviews with `location` set where their source location is one of the business's, and `location`
 * then counted among the fields the export supplies. A review from a place business.json does not list
 * (or a business without locations) is left as it is, so an owner's own `location` stays.
 */
export function placeInLocations(reviews: readonly ImportedReview[], business: unknown): ImportedReview[] {
  const locations = (business as Partial<BusinessContent> | undefined)?.locations;
  if (!Array.isArray(locations) || locations.length === 0) return [...reviews];
  const idOf = new Map<string, string>();
  for (const location of locations) {
    if (typeof location?.id !== 'string') continue;
    if (typeof location.google_location === 'string') idOf.set(locationPart(location.google_location), location.id);
    // A CSV's column gives the id or the name, in any case.
    for (const label of [location.id, location.name]) if (typeof label === 'string') idOf.set(labelKey(label), location.id);
  }
  return reviews.map((imported) => {
    const source = imported.sourceLocation;
    const id = source === undefined ? undefined : source.includes('locations/') ? idOf.get(locationPart(source)) : idOf.get(labelKey(source));
    if (id === undefined) return imported;
    return { ...imported, review: { ...imported.review, location: id }, supplied: [...imported.supplied, 'location'] };
  });
}
