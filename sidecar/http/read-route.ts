/**
 * The shape every live read route shares: one documented path, matched strictly (strict-router.ts);
 * GET (and HEAD, which Express answers with the GET handler), the CORS preflight on OPTIONS
 * (read-preflight.ts), 405 with `Allow` for any other method. A new read route is one call here with
 * its GET handler, which gets the query string already read (`readQuery`).
 */
import type { Request, Response, Router } from 'express';
import { methodNotAllowed } from './errors.ts';
import { READ_METHODS, sendReadPreflight } from './read-preflight.ts';
import { createStrictRouter } from './strict-router.ts';

/** A request target split at its first `?`: the path, and the query after it ('' when there is none). */
export function splitTarget(target: string): { path: string; query: string; search: string } {
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '', search: '' } : { path: target.slice(0, q), query: target.slice(q + 1), search: target.slice(q) };
}

/**
 * The request's query as the client wrote it. Read from `originalUrl`, not Express's parsed `req.query`,
 * so a repeated or oddly spelled parameter reaches the strict parameter parsers as sent.
 */
export function readQuery(req: Request): URLSearchParams {
  return new URLSearchParams(splitTarget(req.originalUrl).query);
}

export type ReadHandler = (req: Request, res: Response, query: URLSearchParams) => void | Promise<void>;

/** A router that answers `path` with `get`, its preflight, and 405 for every other method. */
export function createReadRoute(path: string, get: ReadHandler): Router {
  const router = createStrictRouter();
  router
    .route(path)
    .get((req, res) => get(req, res, readQuery(req)))
    .options((_req, res) => sendReadPreflight(res))
    .all(() => {
      throw methodNotAllowed(READ_METHODS);
    });
  return router;
}
