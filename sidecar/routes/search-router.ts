/** `GET /api/reviews/search` (interface.md): strict parameters, filters combined with AND, newest first. */
import type { Router } from 'express';
import { joinListedReviewBytes } from '../../core/dataset/render-json.ts';
import { logEntryLookupOf } from '../../core/dataset/review-log-entry.ts';
import { CURSOR_PARAMETER, findMatchedIn, runSearchRequest } from '../../core/search/index.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendJson } from '../http/send-json.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

export function createSearchRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  return createReadRoute(PATHS.search, (req, res, params) => {
    const build = getBuild();
    const result = runSearchRequest(build.live.index, params);
    if (!result.ok) {
      throw new HttpError(400, 'invalid_parameters', 'The search parameters are not valid; see issues.', { issues: result.issues });
    }
    const { positions, count, total, limit } = result.page;
    if (result.nextCursor !== null) {
      // RFC 8288: the same filters, with the cursor of the next page.
      const next = new URLSearchParams(params);
      next.set(CURSOR_PARAMETER, result.nextCursor);
      res.setHeader('Link', `<${build.live.urls.search}?${next}>; rel="next"`);
    }
    // The reviews as the build's cached JSON bytes (those of JSON.stringify of each, made once per build) with
    // their log_entry, copied into the answer: joined as strings first, a 20 KB answer allocated four times its
    // size (issue 32).
    const tail = `],${JSON.stringify({ count, total, limit, next_cursor: result.nextCursor }).slice(1)}`;
    // A review found only through a translation says so (issue 43 item 3); the others' bytes are as they were.
    const matchedIn = (pos: number) => {
      const where = findMatchedIn(build.reviewJson.reviews[pos]!, result.query.query);
      return where === undefined ? undefined : `"matched_in":${JSON.stringify(where)}`;
    };
    sendJson(req, res, joinListedReviewBytes(build.reviewJson, positions, logEntryLookupOf(build.live), '{"reviews":[', tail, matchedIn), build.dataLastModifiedMs);
  });
}
