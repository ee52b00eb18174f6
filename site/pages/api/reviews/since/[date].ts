import type { APIRoute, GetStaticPaths } from 'astro';
import { countSince } from '../../../../../core/order.ts';
import { renderSinceBody } from '../../../../../core/dataset/render-json.ts';
import { selectSinceSnapshotDates } from '../../../../../core/dataset/since-snapshots.ts';
import { getBuildData, jsonResponse } from '../../../../lib/build-data.ts';

export const getStaticPaths: GetStaticPaths = async () => {
  const { reviewJson, reviewsBody, logEntryOf } = await getBuildData();
  return selectSinceSnapshotDates(reviewJson, Buffer.byteLength(reviewsBody), logEntryOf).map((date) => ({ params: { date } }));
};

export const GET: APIRoute = async ({ params }) => {
  const { reviewJson, logEntryOf } = await getBuildData();
  return jsonResponse(renderSinceBody(reviewJson, countSince(reviewJson.reviews, params.date!), logEntryOf));
};
