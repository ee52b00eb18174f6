/** `GET /api/technicians/rank`: technicians compared for a service or an aspect (core/search/rank-technicians.ts). */
import type { Router } from 'express';
import { parseSearchParams } from '../../core/search/index.ts';
import { rankTechnicians } from '../../core/search/rank-technicians.ts';
import { RankFiltersShape } from '../../core/schemas/ranking.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError, methodNotAllowed } from '../http/errors.ts';
import { READ_METHODS, sendReadPreflight } from '../http/read-preflight.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

export function createRankRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const router = createStrictRouter();
  router
    .route(PATHS.technicianRank)
    .get((req, res) => {
      const queryString = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const build = getBuild();
      const { input, issues } = parseSearchParams(new URLSearchParams(queryString), RankFiltersShape);
      const result = rankTechnicians(build.live.index, input, issues);
      if (!result.ok) {
        throw new HttpError(400, 'invalid_parameters', 'The ranking parameters are not valid; see issues.', { issues: result.issues });
      }
      sendJson(req, res, JSON.stringify(result.ranking), build.dataLastModifiedMs);
    })
    .options((_req, res) => sendReadPreflight(res))
    .all(() => {
      throw methodNotAllowed(READ_METHODS);
    });
  return router;
}
