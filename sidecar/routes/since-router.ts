/**
 * `GET /api/reviews/since/{date}` for any date. Recent dates are prerendered and served as static
 * files before this route is reached; every other date is rendered here through the same core
 * function, so the bytes and the ETag are the same either way.
 */
import type { Router } from 'express';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import { IsoDateSchema } from '../../core/schemas/content.ts';
import { countSince } from '../../core/order.ts';
import { renderSinceBody } from '../../core/dataset/render-json.ts';
import { logEntryLookupOf } from '../../core/dataset/review-log-entry.ts';
import { PATHS } from '../../core/urls.ts';
import { HttpError } from '../http/errors.ts';
import { createReadRoute } from '../http/read-route.ts';
import { sendRepresentation, type Body } from '../http/send-representation.ts';
import type { LoadedBuild } from '../builds/load-build.ts';

/** Rendered bodies kept per build, by review count (the body depends on the count alone). */
const BODY_CACHE_BYTES = 64 * 1024 * 1024;

export function createSinceRouter({ getBuild }: { getBuild: () => LoadedBuild }): Router {
  const caches = new WeakMap<LoadedBuild, Map<number, Body>>();
  function bodyFor(build: LoadedBuild, count: number): Body {
    let cache = caches.get(build);
    if (!cache) caches.set(build, (cache = new Map()));
    const hit = cache.get(count);
    if (hit) return hit;
    const body = Buffer.from(renderSinceBody(build.reviewJson, count, logEntryLookupOf(build.live)));
    const entry = { body, etag: strongEtag(body) };
    let bytes = body.length;
    for (const cached of cache.values()) bytes += cached.body.length;
    for (const [key, cached] of cache) {
      if (bytes <= BODY_CACHE_BYTES) break;
      cache.delete(key);
      bytes -= cached.body.length;
    }
    if (body.length <= BODY_CACHE_BYTES) cache.set(count, entry);
    return entry;
  }

  return createReadRoute(`${PATHS.sincePrefix}:date`, (req, res) => {
    const date = String(req.params.date);
    const parsed = IsoDateSchema.safeParse(date);
    if (!parsed.success) {
      throw new HttpError(400, 'invalid_date', `"${date.slice(0, 40)}" is not a calendar date in the form YYYY-MM-DD.`, {
        issues: [{ path: ['date'], message: 'must be a valid calendar date, YYYY-MM-DD', code: 'invalid_format' }],
      });
    }
    const build = getBuild();
    const identity = bodyFor(build, countSince(build.live.index.reviews, date));
    sendRepresentation(req, res, {
      headers: staticHeadersOf(`${PATHS.sincePrefix}${date}`, build.live.urls),
      lastModifiedMs: build.dataLastModifiedMs,
      identity,
      compress: true,
    });
  });
}
