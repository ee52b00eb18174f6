/** `GET /api/technicians/rank`: technicians compared for a service or an aspect (core/search/rank-technicians.ts). */
import type { Router } from 'express';
import { parseSearchParams } from '../../core/search/index.ts';
import { rankTechnicians } from '../../core/search/rank-technicians.ts';
import { RankFiltersShape } from '../../core/schemas/ranking.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

export function createRankRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  return createReadRoute(PATHS.technicianRank, (req, res, query) => {
    const build = getBuild();
    const { input, issues } = parseSearchParams(query, RankFiltersShape);
    const result = rankTechnicians(build.live.index, input, issues);
    if (!result.ok) {
      throw new HttpError(400, 'invalid_parameters', 'The ranking parameters are not valid; see issues.', { issues: result.issues });
    }
    sendJson(req, res, JSON.stringify(result.ranking), build.dataLastModifiedMs);
  });
}
