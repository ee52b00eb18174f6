/**
 * `GET /search/`: the human search page, rendered on demand by the build's own page code (Astro's App
 * through this project's adapter, site/adapter/page-entry.ts: a web Request in, a web Response out)
 * with the live data of the same build, so the page and `GET /api/reviews/search` answer from one
 * index. The rendered page is then sent like the other live answers: strong ETag, conditional
 * requests, brotli or gzip. Its headers are set here only, from the one rule of every page's headers
 * (core/publishing/headers.ts); the page sets only its status. `/search` redirects to `/search/`.
 */
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { PATHS, slashRedirectLocation, type ServiceUrls } from '../../core/urls.ts';
import { HttpError, methodNotAllowed } from '../http/errors.ts';
import { sendRepresentation } from '../http/send-representation.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { splitTarget } from '../http/read-route.ts';
import type { LoadedBuild } from '../builds/load-build.ts';
import type { Router } from 'express';

export function createSearchPageRouter({ getBuild, urls }: { getBuild: () => LoadedBuild; urls: ServiceUrls }): Router {
  const router = createStrictRouter();
  const headers = staticHeadersOf(PATHS.searchPage, urls);
  const slashless = PATHS.searchPage.slice(0, -1);
  router.all(slashless, (req, res) => {
    res.redirect(301, slashRedirectLocation(PATHS.searchPage, splitTarget(req.originalUrl).search));
  });
  router
    .route(PATHS.searchPage)
    .get(async (req, res, next) => {
      // One build for the whole answer: its code, and its live data as the page's locals.
      const build = getBuild();
      // A build made before on-demand pages existed has none: /search/ is then unknown (404).
      if (build.pages === undefined) return next();
      // The page reads only its URL's query (the path here is inside the base path); a HEAD is
      // rendered as the GET it answers like.
      const request = new Request(new URL(req.originalUrl, urls.base), { method: 'GET' });
      const page = await build.pages(request, { live: build.live });
      if (page === undefined) return next();
      const body = Buffer.from(await page.arrayBuffer());
      if (page.status >= 500) throw new HttpError(500, 'internal_error', 'The search page could not be rendered.');
      if (page.status !== 200) {
        // An invalid search (400) is answered as rendered, uncached.
        res.writeHead(page.status, { ...headers, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      sendRepresentation(req, res, { headers, lastModifiedMs: build.dataLastModifiedMs, identity: { body, etag: strongEtag(body) }, compress: true });
    })
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  return router;
}
