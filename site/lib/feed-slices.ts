/**
 * The slices with feeds of their own (core/feeds/slices.ts) of this build: its technicians, services
 * and aspects. Computed once per build, for the feed endpoints, /feeds.json and the pages that
 * announce the feeds.
 */
import { listFeedSlices, type FeedSlice } from '../../core/feeds/index.ts';
import { getBuildData } from './build-data.ts';

let slices: Promise<FeedSlice[]> | undefined;

export function getFeedSlices(): Promise<FeedSlice[]> {
  // Named in the site's language, with its aspects' labels (core/insights/page-text.ts).
  return (slices ??= getBuildData().then(({ dataset, pageText, t }) => listFeedSlices(dataset.business, pageText.aspects, t)));
}
