/**
 * `GET /api/reviews/since/{date}` for any date. Recent dates are prerendered and served as static
 * files before this route is reached; every other date is rendered here through the same core
 * function, so the bytes and the ETag are the same either way. `?location=<id>` lists only that
 * location's reviews (core/search/since-request.ts); the static handler leaves such requests to this
 * route, since a snapshot is unfiltered. Other query parameters are ignored, as they always were.
 */
import type { Router } from 'express';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import { IsoDateSchema } from '../../core/schemas/content.ts';
import { countSince } from '../../core/order.ts';
import { renderSinceBody, renderSinceBodyAt } from '../../core/dataset/render-json.ts';
import { logEntryLookupOf } from '../../core/dataset/review-log-entry.ts';
import { listSincePositions, readSinceLocation } from '../../core/search/since-request.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendRepresentation, type Body } from '../http/send-representation.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

/** Rendered bodies kept per build, by location and review count (the body depends on them alone). */
const BODY_CACHE_BYTES = 64 * 1024 * 1024;

export function createSinceRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const caches = new WeakMap<LoadedBuild, Map<string, Body>>();
  function bodyFor(build: LoadedBuild, key: string, render: () => string | Buffer): Body {
    let cache = caches.get(build);
    if (!cache) caches.set(build, (cache = new Map()));
    const hit = cache.get(key);
    if (hit) return hit;
    const rendered = render();
    const body = typeof rendered === 'string' ? Buffer.from(rendered) : rendered;
    const entry = { body, etag: strongEtag(body) };
    let bytes = body.length;
    for (const cached of cache.values()) bytes += cached.body.length;
    for (const [key, cached] of cache) {
      if (bytes <= BODY_CACHE_BYTES) break;
      cache.delete(key);
      bytes -= cached.body.length;
    }
    if (body.length <= BODY_CACHE_BYTES) cache.set(key, entry);
    return entry;
  }

  return createReadRoute(`${PATHS.sincePrefix}:date`, (req, res, query) => {
    const date = String(req.params.date);
    const parsed = IsoDateSchema.safeParse(date);
    const build = getBuild();
    const { index } = build.live;
    const location = readSinceLocation(index, query);
    const locationIssues = location.ok ? [] : location.issues;
    if (!parsed.success) {
      throw new HttpError(400, 'invalid_date', `"${date.slice(0, 40)}" is not a calendar date in the form YYYY-MM-DD.`, {
        issues: [{ path: ['date'], message: 'must be a valid calendar date, YYYY-MM-DD', code: 'invalid_format' }, ...locationIssues],
      });
    }
    if (!location.ok) throw new HttpError(400, 'invalid_parameters', 'The since parameters are not valid; see issues.', { issues: locationIssues });
    const logEntryOf = logEntryLookupOf(build.live);
    let identity: Body;
    if (location.location === undefined) {
      const count = countSince(index.reviews, date);
      identity = bodyFor(build, String(count), () => renderSinceBody(build.reviewJson, count, logEntryOf));
    } else {
      const positions = listSincePositions(index, date, location.location);
      // Location ids are slugs, so `id:count` never reads as a plain count.
      identity = bodyFor(build, `${location.location}:${positions.length}`, () => renderSinceBodyAt(build.reviewJson, Array.from(positions), logEntryOf));
    }
    sendRepresentation(req, res, {
      headers: staticHeadersOf(`${PATHS.sincePrefix}${date}`, build.live.urls),
      lastModifiedMs: build.dataLastModifiedMs,
      identity,
      compress: true,
    });
  });
}
