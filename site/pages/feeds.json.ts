/** `/feeds.json`: every feed of the service, the main ones and one pair per slice, with the hub that pushes them. */
import type { APIRoute } from 'astro';
import { buildFeedsIndex } from '../../core/feeds/index.ts';
import { getBuildData, jsonResponse } from '../lib/build-data.ts';
import { getFeedSlices } from '../lib/feed-slices.ts';

export const GET: APIRoute = async () => {
  const { dataset, urls, t } = await getBuildData();
  return jsonResponse(JSON.stringify(buildFeedsIndex(await getFeedSlices(), dataset.business, urls, t)));
};
