/**
 * `GET /search/`: the human search page, rendered on demand by the build's Astro code (the Node
 * adapter in middleware mode) with the live data of the same build, so the page and
 * `GET /api/reviews/search` answer from one index. `/search` redirects to `/search/`, query kept.
 */
import { Router } from 'express';
import { PATHS } from '../../core/urls.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { LoadedBuild } from '../static/load-build.ts';

export function createSearchPageRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const router = Router({ strict: true });
  const slashless = PATHS.searchPage.slice(0, -1);
  router.all(slashless, (req, res) => {
    const q = req.originalUrl.indexOf('?');
    res.redirect(301, `${PATHS.searchPage}${q === -1 ? '' : req.originalUrl.slice(q)}`);
  });
  router
    .route(PATHS.searchPage)
    .get(async (req, res, next) => {
      const build = getBuild();
      // A build made before on-demand pages existed has none: /search/ is then unknown (404).
      if (build.pages === undefined) return next();
      await build.pages(req, res, next, { live: build.live });
    })
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  return router;
}
