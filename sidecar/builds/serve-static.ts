/**
 * Serves the built files from memory on the raw Node request, ahead of Express: the hot path for
 * datasets and 304 revalidations. Returns false for paths that are not part of the build, and for a
 * since request that names a location (its snapshot is unfiltered: the live route filters). The query is
 * otherwise ignored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRepresentation } from '../http/send-representation.ts';
import { methodNotAllowed, sendHttpError } from '../http/errors.ts';
import { READ_METHODS, sendReadPreflight } from '../http/read-preflight.ts';
import { slashRedirectLocation } from '../../core/urls.ts';
import { namesSinceLocation } from '../../core/search/since-request.ts';
import type { BuildStore } from './build-store.ts';
import { splitTarget } from '../http/read-route.ts';


export function createStaticHandler({ builds }: { builds: BuildStore }) {
  return function serveStatic(req: IncomingMessage, res: ServerResponse): boolean {
    const { path: pathname, search } = splitTarget(req.url ?? '/');
    if (namesSinceLocation(pathname, search)) return false;
    const build = builds.current();
    const representation = build.resources.get(pathname);
    if (!representation) {
      const canonical = build.redirects.get(pathname);
      if (canonical === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
      // One URL per page: the slash-less form of a page redirects to the canonical one, query kept.
      res.writeHead(301, { Location: slashRedirectLocation(canonical, search), 'Cache-Control': 'public, max-age=3600' });
      res.end();
      return true;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendRepresentation(req, res, representation);
    } else if (req.method === 'OPTIONS') {
      sendReadPreflight(res);
    } else {
      sendHttpError(res, methodNotAllowed(READ_METHODS));
    }
    return true;
  };
}
