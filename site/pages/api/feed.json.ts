import type { APIRoute } from 'astro';
import { renderJsonFeed } from '../../../core/feeds/index.ts';
import { getBuildData, jsonResponse } from '../../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { dataset, urls, t } = await getBuildData();
  return jsonResponse(renderJsonFeed({ business: dataset.business, reviews: dataset.reviews, urls, t }));
};
