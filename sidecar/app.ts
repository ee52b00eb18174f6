/**
 * The whole HTTP surface on one origin. Built files are answered straight from memory before
 * Express is involved (the hot path); everything else goes through one Express app with one error
 * middleware and one error shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Router } from 'express';
import { fromLibraryClientError, HttpError, sendHttpError } from './http/errors.ts';
import { sendHtmlNotFound } from './http/html-not-found.ts';
import { splitTarget } from './http/read-route.ts';
import { PATHS, slashRedirectLocation, stripBasePath } from '../core/urls.ts';
import type { Logger } from './logger.ts';
import type { BuildStore } from './builds/build-store.ts';
import { createStaticHandler } from './builds/serve-static.ts';

export type AppDeps = {
  builds: BuildStore;
  log: Logger;
  /** Express's `trust proxy` (Config.trustProxy): decides `req.ip`, the client address the hub rate-limits by. */
  trustProxy?: boolean | number | string[];
  /** Every Express router (sidecar/server.ts builds them all), mounted in order before the 404 handler. */
  routers: Router[];
  /** The path of `PUBLIC_URL` (`/reviews`), under which everything is served; `''` (the default) for the root. */
  basePath?: string;
};

/** Answered outside the base path too: probes and scrapers reach the sidecar directly, not through the public URL. */
const OPERATIONAL_PATHS: readonly string[] = [PATHS.health, PATHS.ready, PATHS.metrics];

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export function createApp(deps: AppDeps): RequestListener {
  const getBuild = () => deps.builds.current();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  app.set('trust proxy', deps.trustProxy ?? false);
  for (const router of deps.routers) app.use(router);
  app.use((req, res) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && sendHtmlNotFound(req, res, getBuild())) return;
    throw new HttpError(404, 'not_found', `Nothing at ${req.path.slice(0, 200)}. The API is described at /.well-known/openapi.json.`);
  });
  app.use(createErrorHandler(deps.log));

  const serveStatic = createStaticHandler({ builds: deps.builds });
  const serve: RequestListener = (req, res) => {
    if (serveStatic(req, res)) (req as Marked)[SERVED_STATIC] = true;
    else app(req, res);
  };
  const basePath = deps.basePath ?? '';
  if (basePath === '') return serve;
  return (req, res) => {
    const url = req.url ?? '/';
    const { path: pathname, search } = splitTarget(url);
    if (pathname === basePath) {
      res.writeHead(301, { Location: slashRedirectLocation(`${basePath}/`, search), 'Cache-Control': 'public, max-age=3600' });
      res.end();
      return;
    }
    const inside = stripBasePath(url, basePath);
    if (inside !== undefined) req.url = inside;
    else if (!OPERATIONAL_PATHS.includes(pathname)) {
      sendHttpError(res, new HttpError(404, 'not_found', `Nothing at ${pathname.slice(0, 200)}: this service lives under ${basePath}/.`));
      return;
    }
    serve(req, res);
  };
}

// A mark on the request rather than a WeakSet of requests: a weak collection costs the garbage collector
// work for every request (issue 32).
const SERVED_STATIC = Symbol('servedStatic');
type Marked = IncomingMessage & { [SERVED_STATIC]?: true };

/**
 * Which route answered a request, for metrics: the matched Express route's path, `static` for a built
 * file, `none` when nothing matched (a bounded set of labels, whatever paths clients ask for).
 */
export function routeOf(req: IncomingMessage): string {
  if ((req as Marked)[SERVED_STATIC]) return 'static';
  const route = (req as IncomingMessage & { route?: { path?: unknown } }).route?.path;
  return typeof route === 'string' ? route : 'none';
}

function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof HttpError) return sendHttpError(res, error);
    // body-parser and router errors: malformed bodies, bodies too large, bad URL encoding.
    const clientError = fromLibraryClientError(error);
    if (clientError) return sendHttpError(res, clientError);
    log.error('unhandled_error', { path: req.path, error: String(error?.stack ?? error) });
    sendHttpError(res, new HttpError(500, 'internal_error', 'Something went wrong on our side.'));
  };
}
