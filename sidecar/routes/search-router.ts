/** `GET /api/reviews/search` (interface.md): strict parameters, filters combined with AND, newest first. */
import type { Router } from 'express';
import { parseSearchParams, resolveSearchQuery, searchReviews } from '../../core/search/index.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError, methodNotAllowed } from '../http/errors.ts';
import { READ_METHODS, sendReadPreflight } from '../http/read-preflight.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../static/load-build.ts';

export function createSearchRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const router = createStrictRouter();
  router
    .route(PATHS.search)
    .get((req, res) => {
      const queryString = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const build = getBuild();
      const live = build.live;
      const params = parseSearchParams(new URLSearchParams(queryString));
      const resolved = resolveSearchQuery(params.input, live.index, params.issues);
      if (!resolved.ok) {
        throw new HttpError(400, 'invalid_parameters', 'The search parameters are not valid; see issues.', {
          issues: resolved.issues,
        });
      }
      const { reviews, count, total, limit } = searchReviews(live.index, resolved.query);
      sendJson(req, res, JSON.stringify({ reviews, count, total, limit }), build.dataLastModifiedMs);
    })
    .options((_req, res) => sendReadPreflight(res))
    .all(() => {
      throw methodNotAllowed(READ_METHODS);
    });
  return router;
}
