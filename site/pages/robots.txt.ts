/**
 * robots.txt: every page may be crawled except the endless ones (search results, the live API, the
 * MCP and hub endpoints); the datasets and feeds stay open. Under a PUBLIC_URL with a path, crawlers
 * read only the origin's own robots.txt: these lines, with that path, are for the business to copy there.
 */
import type { APIRoute } from 'astro';
import { PATHS } from '../../core/urls.ts';
import { getBuildData } from '../lib/build-data.ts';

export const GET: APIRoute = async () => {
  const { urls } = await getBuildData();
  const body = [
    'User-agent: *',
    // The search form itself may be crawled; its results (any query string) may not.
    `Disallow: ${urls.basePath}${PATHS.searchPage}?`,
    `Disallow: ${urls.basePath}${PATHS.search}`,
    `Disallow: ${urls.basePath}${PATHS.sincePrefix}`,
    `Disallow: ${urls.basePath}${PATHS.mcp}`,
    `Disallow: ${urls.basePath}${PATHS.hub}`,
    `Allow: ${urls.basePath}/`,
    '',
    `Sitemap: ${urls.absolute(PATHS.sitemap)}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
