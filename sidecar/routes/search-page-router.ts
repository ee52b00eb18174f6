/**
 * `GET /search/`: the human search page, the build's shell filled for the query by core/pages/search-page.ts
 * with the live data of the same build, so the page and `GET /api/reviews/search` answer from one index.
 * The page is then sent like the other live answers: strong ETag, conditional requests, brotli or gzip.
 * Its headers are set here only, from the one rule of every page's headers (core/publishing/headers.ts).
 * `/search` redirects to `/search/`.
 */
import type { Router } from 'express';
import { renderSearchPage } from '../../core/pages/search-page.ts';
import { createTranslator } from '../../core/i18n/translator.ts';
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { PATHS, slashRedirectLocation, type ServiceUrls } from '../../core/urls.ts';
import type { LoadedBuild } from '../builds/load-build.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { splitTarget } from '../http/read-route.ts';
import { sendRepresentation } from '../http/send-representation.ts';
import { createStrictRouter } from '../http/strict-router.ts';

export function createSearchPageRouter({ getBuild, urls }: { getBuild: () => LoadedBuild; urls: ServiceUrls }): Router {
  const router = createStrictRouter();
  const headers = staticHeadersOf(PATHS.searchPage, urls);
  const slashless = PATHS.searchPage.slice(0, -1);
  router.all(slashless, (req, res) => {
    res.redirect(301, slashRedirectLocation(PATHS.searchPage, splitTarget(req.originalUrl).search));
  });
  router
    .route(PATHS.searchPage)
    .get((req, res, next) => {
      // One build for the whole answer: its shell, and its live data.
      const build = getBuild();
      // A build made before the search page had a shell has none: /search/ is then unknown (404).
      if (build.searchShell === undefined) return next();
      // In the site's language, which the build names (core/publishing/site-language.ts).
      const language = { t: createTranslator(build.language.locale), aspectLabels: build.language.aspect_labels };
      const page = renderSearchPage(build.searchShell, build.live, new URLSearchParams(splitTarget(req.originalUrl).search), language);
      const body = Buffer.from(page.html);
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
