/** The Atom feed and the JSON Feed of every slice (core/feeds/slices.ts), prerendered like the main feeds. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { describeSliceChannel, renderAtomFeed, renderJsonFeed, selectSliceReviews, type FeedSlice } from '../../../core/feeds/index.ts';
import { PATHS } from '../../../core/urls.ts';
import { getBuildData, jsonResponse } from '../../lib/build-data.ts';
import { getFeedSlices } from '../../lib/feed-slices.ts';

export const getStaticPaths = (async () => {
  const slices = await getFeedSlices();
  return slices.flatMap((slice) =>
    (['atom', 'json'] as const).map((format) => ({
      params: { path: (format === 'atom' ? slice.atomPath : slice.jsonPath).slice(PATHS.feedsPrefix.length) },
      props: { slice, format },
    })),
  );
}) satisfies GetStaticPaths;

type Props = { slice: FeedSlice; format: 'atom' | 'json' };

export const GET: APIRoute<Props> = async ({ props: { slice, format } }) => {
  const { dataset, urls, t } = await getBuildData();
  const input = {
    business: dataset.business,
    reviews: selectSliceReviews(slice, dataset.reviews),
    urls,
    channel: describeSliceChannel(slice, dataset.business, urls, t),
    t,
  };
  if (format === 'json') return jsonResponse(renderJsonFeed(input));
  return new Response(renderAtomFeed(input), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
};
