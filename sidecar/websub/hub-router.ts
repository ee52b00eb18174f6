/**
 * HTTP adapter of the hub: `POST /api/websub/hub` with a form-encoded body (interface.md). Accepted
 * requests get exactly `202 Accepted` with no body; errors the service's JSON error body (CONTRACT.md
 * "Every error is JSON"). Requests are rate-limited per client address (`req.ip`, so the app's
 * `trust proxy` setting decides what the address is behind a proxy).
 */
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { PATHS } from '../../core/urls.ts';
import { methodNotAllowed, sendError, sendHttpError } from '../http/errors.ts';
import type { Hub } from './hub.ts';
import { clientKeyOf } from '../http/client-address.ts';
import { createRateLimiter, type RateLimitOptions } from '../http/rate-limit.ts';

export type HubRouterOptions = {
  hub: Hub;
  /** Per client address; default a burst of 30, then 1 request per second. */
  rateLimit?: RateLimitOptions;
  /** Largest accepted body, in bytes or a size string like `16kb`. */
  bodyLimit?: number | string;
};

const FORM = 'application/x-www-form-urlencoded';

export function createHubRouter(options: HubRouterOptions): Router {
  const { hub } = options;
  const limiter = createRateLimiter(options.rateLimit ?? { capacity: 30, refillPerSecond: 1 });
  const router = Router();

  const limitRate: RequestHandler = (req, res, next) => {
    const verdict = limiter.take(clientKeyOf(req.ip ?? req.socket.remoteAddress));
    if (verdict.ok) return next();
    sendError(res, 429, 'rate_limited', `Too many hub requests from this address; retry in ${verdict.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
    });
  };

  const handle = async (req: Request, res: Response) => {
    if (!req.is(FORM)) {
      return sendError(res, 400, 'invalid_request', `The hub takes a ${FORM} body.`);
    }
    const answer = await hub.handleRequest(new URLSearchParams(typeof req.body === 'string' ? req.body : ''));
    if (answer.status === 202) {
      res.status(202).end();
      return;
    }
    const headers = answer.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(answer.retryAfterSeconds) };
    sendError(res, answer.status, answer.body.error, answer.body.message, { issues: answer.body.issues, headers });
  };

  const refuseMethod: RequestHandler = (_req, res) => sendHttpError(res, methodNotAllowed(['POST']));

  const bodyErrors: ErrorRequestHandler = (err: { type?: string; status?: number }, _req, res, next) => {
    // body-parser's errors (RFC 9110: 413 for a body over the limit), answered here so the hub's errors
    // have the service's shape even when the router is mounted alone.
    if (err.type === 'entity.too.large') return sendError(res, 413, 'payload_too_large', 'The hub request body is too large.');
    if (typeof err.type === 'string' && typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
      return sendError(res, err.status, 'invalid_request', 'The hub request body could not be read.');
    }
    next(err);
  };

  router
    .route(PATHS.hub)
    .post(limitRate, express.text({ type: FORM, limit: options.bodyLimit ?? '16kb' }), handle)
    .all(refuseMethod);
  router.use(PATHS.hub, bodyErrors);
  return router;
}
