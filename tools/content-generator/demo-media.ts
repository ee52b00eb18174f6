/**
 * The demo's customer photos (drawn by tools/media/make-sample-photos.ts, committed in
 * examples/demo/media/): which review shows which file, with its alt text. Only the demo itself (the
 * default seed, count and end date) gets them, so content generated for benchmarks names no photo it
 * does not have.
 */
import type { MediaContent } from '../../core/schemas/content.ts';

const DEMO_MEDIA: Readonly<Record<string, readonly MediaContent[]>> = {
  'r-2026-11-0001': [{ file: 'media/r-2026-11-0001/filter.jpg', alt: 'The furnace after the maintenance visit, new filter in' }],
  'r-2026-10-0002': [
    { file: 'media/r-2026-10-0002/condenser.jpg', alt: 'The new outdoor condenser on its pad' },
    { file: 'media/r-2026-10-0002/thermostat.jpg', alt: 'The new thermostat set to 68' },
  ],
  'r-2026-10-0005': [{ file: 'media/r-2026-10-0005/water-heater.jpg' }],
  'r-2026-10-0010': [{ file: 'media/r-2026-10-0010/under-the-sink.jpg', alt: 'Water under the kitchen sink before the repair' }],
};

/** `reviews` with the demo's photos attached. */
export function attachDemoMedia<T extends { id: string }>(reviews: T[]): (T & { media?: MediaContent[] })[] {
  return reviews.map((review) => {
    const media = DEMO_MEDIA[review.id];
    return media === undefined ? review : { ...review, media: [...media] };
  });
}
