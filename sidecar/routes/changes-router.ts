/**
 * `GET /api/reviews/changes?since=<token>&limit=`: the build's change log after a token
 * (core/dataset/read-changes.ts). A live answer like search: a strong ETag from its bytes, 304 on a match.
 */
import type { Router } from 'express';
import { readChanges } from '../../core/dataset/read-changes.ts';
import type { ErrorIssue } from '../../core/schemas/errors.ts';
import { ChangesQuerySchema, ChangesQueryShape } from '../../core/schemas/changes.ts';
import { parseWithIssues } from '../../core/schemas/issues.ts';
import { parseSearchParams } from '../../core/search/index.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

export function createChangesRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  return createReadRoute(PATHS.changes, (req, res, query) => {
    const { input, issues } = parseSearchParams(query, ChangesQueryShape);
    const parsed = parseWithIssues(ChangesQuerySchema, input);
    const problems = [...issues, ...(parsed.ok ? [] : parsed.issues)];
    if (problems.length > 0 || !parsed.ok) throw invalid(problems);
    const build = getBuild();
    const outcome = readChanges(build.live, parsed.value);
    if (!outcome.ok && !outcome.expired) throw invalid(outcome.issues);
    // RFC 9110 §15.5.11: what the token pointed into is gone for good, so 410 (not 400: the token was ours).
    if (!outcome.ok) throw new HttpError(410, 'token_expired', outcome.message, { issues: outcome.issues });
    const { result } = outcome;
    if (result.has_more && result.next_token !== null) {
      // RFC 8288: the next page, as search gives it.
      res.setHeader('Link', `<${build.live.urls.changes(result.next_token)}&limit=${result.limit}>; rel="next"`);
    }
    sendJson(req, res, JSON.stringify(result), build.dataLastModifiedMs);
  });
}

function invalid(issues: ErrorIssue[]): HttpError {
  return new HttpError(400, 'invalid_parameters', 'The change log parameters are not valid; see issues.', { issues });
}
