import type { APIRoute } from 'astro';
import { getBuildData, jsonResponse } from '../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { insightsBody } = await getBuildData();
  return jsonResponse(insightsBody);
};
