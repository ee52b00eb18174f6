import type { APIRoute } from 'astro';
import { getBuildData } from '../lib/build-data.ts';
import { drawShareImage, renderPng } from '../lib/images.ts';

export const GET: APIRoute = async () => {
  const { dataset, t } = await getBuildData();
  const png = renderPng(drawShareImage(dataset.business, dataset.aggregate_rating, t), 1200);
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
