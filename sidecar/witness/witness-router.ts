/**
 * The witness's HTTP interface (C2SP tlog-witness v1.0; the submission and monitoring prefixes are both
 * `{base}/witness`):
 * - `POST /witness/add-checkpoint` with the protocol's text body, answered with the cosignature line
 *   (200), the latest cosigned size as `text/x.tlog.size` (409), the reason in plain text (422), or the
 *   service's error shape (400, 403, 404; 503 while the witness cannot read its state);
 * - `GET /witness/<lowercase hex SHA-256 of the origin>/checkpoint`: the latest checkpoint it cosigned for
 *   that log, the log's signature and its cosignature (404 for a log it never cosigned);
 * - `GET /witness/vkey`: the cosigner key to put in another instance's LOG_WITNESSES.
 * Every `/witness/*` request is rate-limited per client address, as the hub's are.
 */
import express, { type ErrorRequestHandler, type Router } from 'express';
import { PATHS } from '../../core/urls.ts';
import { HttpError, methodNotAllowed, sendError } from '../http/errors.ts';
import { createRateLimitMiddleware, type RateLimitOptions } from '../http/rate-limit.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import type { Witness } from './witness.ts';

const CODES = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 503: 'not_ready' } as const;

export function createWitnessRouter(deps: { witness: Witness; rateLimit: RateLimitOptions }): Router {
  const router = createStrictRouter();
  router.use(
    PATHS.witnessPrefix,
    createRateLimitMiddleware(deps.rateLimit, (res, seconds) =>
      sendError(res, 429, 'rate_limited', `Too many witness requests from this address; retry in ${seconds} s.`, { cors: false }),
    ),
  );
  router
    .route(PATHS.witnessAddCheckpoint)
    .post(express.text({ type: () => true, limit: '16kb', defaultCharset: 'utf-8' }), async (req, res) => {
      const answer = await deps.witness.addCheckpoint(typeof req.body === 'string' ? req.body : '');
      if (answer.status === 200) return void res.type('text/plain; charset=utf-8').set('Cache-Control', 'no-store').send(answer.cosignature);
      if (answer.status === 409) return void res.status(409).type('text/x.tlog.size').set('Cache-Control', 'no-store').send(`${answer.latestSize}\n`);
      // 422 is the protocol's own answer (the service's error codes have no 422): its reason in plain text.
      if (answer.status === 422) return void res.status(422).type('text/plain; charset=utf-8').set('Cache-Control', 'no-store').send(`${answer.message}\n`);
      throw new HttpError(answer.status, CODES[answer.status], answer.message, { cors: false });
    })
    .all(() => {
      throw methodNotAllowed(['POST'], { cors: false });
    });
  router
    .route(PATHS.witnessVkey)
    .get((_req, res) => void res.type('text/plain; charset=utf-8').send(`${deps.witness.vkey}\n`))
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  router
    .route(PATHS.witnessMonitoring)
    .get((req, res) => {
      const hash = req.params.originHash ?? '';
      if (!/^[0-9a-f]{64}$/.test(hash)) throw new HttpError(404, 'not_found', 'A log is named here by the lowercase hex SHA-256 of its origin.');
      const found = deps.witness.monitoringCheckpoint(hash);
      if (!found.ok) throw new HttpError(found.status, CODES[found.status], found.message);
      // The spec lets a monitoring answer lag by up to an hour (so a CDN may hold it); ours is at most a minute old.
      res.type('text/plain; charset=utf-8').set('Cache-Control', 'public, max-age=60').send(found.checkpoint);
    })
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  const bodyErrors: ErrorRequestHandler = (err: { type?: string }, _req, _res, next) => {
    if (err.type === 'entity.too.large') return next(new HttpError(413, 'payload_too_large', 'The add-checkpoint body is too large.', { cors: false }));
    next(err);
  };
  router.use(PATHS.witnessAddCheckpoint, bodyErrors);
  return router;
}
