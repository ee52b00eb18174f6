/**
 * `GET /search/`: the human search page, rendered on demand by the build's Astro code (the Node
 * adapter in middleware mode) with the live data of the same build, so the page and
 * `GET /api/reviews/search` answer from one index. The rendered page is then sent like the other
 * live answers: strong ETag, conditional requests, brotli or gzip. `/search` redirects to `/search/`.
 */
import type { ServerResponse } from 'node:http';
import { Router } from 'express';
import { PAGE_HEADERS } from '../../core/publishing/headers.ts';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { PATHS, slashRedirectLocation } from '../../core/urls.ts';
import { CapturedResponse } from '../http/captured-response.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { sendRepresentation } from '../http/send-representation.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

/** The headers of the rendered page that travel with it. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'x-content-type-options'];

export function createSearchPageRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const router = Router({ strict: true });
  const slashless = PATHS.searchPage.slice(0, -1);
  router.all(slashless, (req, res) => {
    const q = req.originalUrl.indexOf('?');
    res.redirect(301, slashRedirectLocation(PATHS.searchPage, q === -1 ? '' : req.originalUrl.slice(q)));
  });
  router
    .route(PATHS.searchPage)
    .get(async (req, res, next) => {
      const build = getBuild();
      // A build made before on-demand pages existed has none: /search/ is then unknown (404).
      if (build.pages === undefined) return next();
      const page = new CapturedResponse(req);
      let passed = false;
      await build.pages(req, page as unknown as ServerResponse, () => (passed = true), { live: build.live });
      if (passed) return next();
      await page.finished;
      const headers = { ...PAGE_HEADERS, ...Object.fromEntries(KEPT_HEADERS.flatMap((name) => (page.headers[name] ? [[name, page.headers[name]]] : []))) };
      const body = page.body();
      if (page.statusCode !== 200) {
        // An invalid search (400) is answered as rendered, uncached.
        res.writeHead(page.statusCode, { ...headers, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) });
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
