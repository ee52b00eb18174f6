import type { APIRoute } from 'astro';
import { InsightsSchema } from '../../../core/schemas/insights.ts';
import { buildOpenApiDocument } from '../../../core/openapi/index.ts';
import { getBuildData, jsonResponse } from '../../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { urls } = await getBuildData();
  return jsonResponse(`${JSON.stringify(buildOpenApiDocument({ urls, insightsSchema: InsightsSchema }), null, 2)}\n`);
};
