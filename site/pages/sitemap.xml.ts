/** sitemap.xml (sitemaps.org 0.9): every prerendered page, from the same list the pages are built from. */
import type { APIRoute } from 'astro';
import { getBuildData } from '../lib/build-data.ts';
import { getSiteModel } from '../lib/site-model.ts';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const { urls } = await getBuildData();
  const { pages } = await getSiteModel();
  const entries = pages.map(
    (page) => `  <url><loc>${escapeXml(urls.absolute(page.path))}</loc>${page.lastmod ? `<lastmod>${page.lastmod}</lastmod>` : ''}</url>`,
  );
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
