/**
 * Under a `PUBLIC_URL` with a path (`https://example.com/reviews`), every page's root-relative links,
 * scripts and forms get that path (core/urls.ts `prefixRootRelativeUrls`): the pages are written with
 * the site's own paths, and this runs once on each page, prerendered or rendered on demand.
 */
import { defineMiddleware } from 'astro:middleware';
import { createServiceUrls, prefixRootRelativeUrls } from '../core/urls.ts';

const { basePath } = createServiceUrls(import.meta.env.REVIEWS_PUBLIC_URL);

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (basePath === '' || !response.headers.get('content-type')?.startsWith('text/html')) return response;
  const html = prefixRootRelativeUrls(await response.text(), basePath);
  return new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
});
