import type { APIRoute } from 'astro';
import { renderAtomFeed } from '../../core/feeds/index.ts';
import { getBuildData } from '../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { dataset, urls, t } = await getBuildData();
  return new Response(renderAtomFeed({ business: dataset.business, reviews: dataset.reviews, urls, t }), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
};
