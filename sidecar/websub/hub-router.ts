/**
 * HTTP adapter of the hub: `POST /api/websub/hub` with a form-encoded body (interface.md). Accepted
 * subscribe and unsubscribe requests get exactly `202 Accepted` with no body, an accepted publish ping
 * a 202 with the store's verdict per topic (core/schemas/publish-verdict.ts); errors the service's JSON
 * error body (CONTRACT.md "Every error is JSON"). Requests are rate-limited per client address (http/rate-limit.ts).
 */
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { PATHS } from '../../core/urls.ts';
import { fromLibraryClientError, methodNotAllowed, sendError, sendHttpError, type ErrorOptions, type ErrorStatus } from '../http/errors.ts';
import type { ErrorCode } from '../../core/schemas/errors.ts';
import type { Hub } from './hub.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { createRateLimitMiddleware, type RateLimitOptions } from '../http/rate-limit.ts';

export type HubRouterOptions = {
  hub: Hub;
  /** Per client address (`Config.websub.rateLimit`). */
  rateLimit: RateLimitOptions;
  /** Largest accepted body, in bytes or a size string like `16kb`. */
  bodyLimit?: number | string;
  /** The service's own origin (`PUBLIC_URL`): the only browser origin whose forms the hub accepts. */
  publicOrigin?: string;
};

const FORM = 'application/x-www-form-urlencoded';

export function createHubRouter(options: HubRouterOptions): Router {
  const { hub } = options;
  // No CORS on the hub: its answers are for subscribers (servers), never for scripts of other origins.
  const refuse = (res: Response, status: ErrorStatus, code: ErrorCode, message: string, extra: Omit<ErrorOptions, 'cors'> = {}): void =>
    sendError(res, status, code, message, { ...extra, cors: false });

  /**
   * A browser submitting a form from another site sends `Origin` (and `Sec-Fetch-Site: cross-site`):
   * without this, any web page could make its visitors subscribe callbacks of its choosing.
   */
  const refuseCrossOrigin: RequestHandler = (req, res, next) => {
    const origin = req.get('origin');
    const site = req.get('sec-fetch-site');
    const foreignOrigin = origin !== undefined && origin !== options.publicOrigin;
    if (!foreignOrigin && (site === undefined || site === 'same-origin' || site === 'none')) return next();
    refuse(res, 403, 'cross_origin_refused', 'The hub does not accept requests made by web pages of other origins; subscribe from your server.');
  };
  const router = createStrictRouter();
  const limitRate = createRateLimitMiddleware(options.rateLimit, (res, seconds) =>
    refuse(res, 429, 'rate_limited', `Too many hub requests from this address; retry in ${seconds} s.`),
  );

  const handle = async (req: Request, res: Response) => {
    if (!req.is(FORM)) {
      return refuse(res, 400, 'invalid_request', `The hub takes a ${FORM} body.`);
    }
    const answer = await hub.handleRequest(new URLSearchParams(typeof req.body === 'string' ? req.body : ''));
    if (answer.status === 202) {
      if (answer.verdict) res.status(202).json(answer.verdict);
      else res.status(202).end();
      return;
    }
    const headers = answer.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(answer.retryAfterSeconds) };
    refuse(res, answer.status, answer.body.error, answer.body.message, { issues: answer.body.issues, headers });
  };

  const refuseMethod: RequestHandler = (_req, res) => sendHttpError(res, methodNotAllowed(['POST'], { cors: false }));

  const bodyErrors: ErrorRequestHandler = (err: unknown, _req, res, next) => {
    // body-parser's errors (RFC 9110: 413 for a body over the limit), answered here so the hub's errors
    // have the service's shape (and no CORS) even when the router is mounted alone.
    const clientError = fromLibraryClientError(err, {
      code: 'invalid_request',
      message: (status) => (status === 413 ? 'The hub request body is too large.' : 'The hub request body could not be read.'),
      cors: false,
    });
    if (clientError) return sendHttpError(res, clientError);
    next(err);
  };

  router
    .route(PATHS.hub)
    .post(refuseCrossOrigin, limitRate, express.text({ type: FORM, limit: options.bodyLimit ?? '16kb' }), handle)
    .all(refuseMethod);
  router.use(PATHS.hub, bodyErrors);
  return router;
}
