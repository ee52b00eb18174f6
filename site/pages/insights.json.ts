import type { APIRoute } from 'astro';
import { summarizeEntities } from '../../core/dataset/entity-summary.ts';
import { getBuildData, jsonResponse } from '../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { dataset } = await getBuildData();
  return jsonResponse(JSON.stringify({ entities: summarizeEntities(dataset) }));
};
