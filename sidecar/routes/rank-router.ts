/** `GET /api/technicians/rank`: technicians compared for a service or an aspect (core/search/rank-technicians.ts). */
import type { Router } from 'express';
import { rankTechniciansFromParams } from '../../core/search/rank-technicians.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

export function createRankRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  return createReadRoute(PATHS.technicianRank, (req, res, query) => {
    const build = getBuild();
    const result = rankTechniciansFromParams(build.live.index, query);
    if (!result.ok) {
      throw new HttpError(400, 'invalid_parameters', 'The ranking parameters are not valid; see issues.', { issues: result.issues });
    }
    sendJson(req, res, JSON.stringify(result.ranking), build.dataLastModifiedMs);
  });
}
