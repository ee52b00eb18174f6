/**
 * robots.txt: every page may be crawled except the endless ones (search results, the live API, the
 * MCP and hub endpoints); the datasets and feeds stay open.
 */
import type { APIRoute } from 'astro';
import { PATHS } from '../../core/urls.ts';
import { getBuildData } from '../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { urls } = await getBuildData();
  const body = [
    'User-agent: *',
    // The search form itself may be crawled; its results (any query string) may not.
    `Disallow: ${PATHS.searchPage}?`,
    `Disallow: ${PATHS.search}`,
    `Disallow: ${PATHS.sincePrefix}`,
    `Disallow: ${PATHS.mcp}`,
    `Disallow: ${PATHS.hub}`,
    'Allow: /',
    '',
    `Sitemap: ${urls.absolute(PATHS.sitemap)}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
