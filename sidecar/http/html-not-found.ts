/**
 * CONTRACT.md's one exception to JSON errors: a request whose Accept prefers `text/html`, for a path
 * that is not the API, a dataset, a feed, /mcp or the hub (core/urls.ts isMachinePath), gets its 404
 * as the build's HTML page, with status 404. Clients that prefer JSON, or state no preference
 * (`*\/*`, no Accept), keep the JSON error.
 */
import type { Request, Response } from 'express';
import { PAGE_HEADERS } from '../../core/publishing/headers.ts';
import { isMachinePath, PATHS } from '../../core/urls.ts';
import type { LoadedBuild } from '../builds/load-build.ts';
import { negotiateEncoding } from './accept-encoding.ts';
import type { Encoding } from '../../core/publishing/manifest.ts';

/** Whether the request prefers HTML over JSON (q-values, then the order the client gave). */
export function prefersHtml(req: Request): boolean {
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** Sends the build's 404 page if this request should get one; false when it should get JSON. */
export function sendHtmlNotFound(req: Request, res: Response, build: LoadedBuild): boolean {
  const page = build.resources.get(PATHS.notFoundPage);
  if (page === undefined || isMachinePath(req.path) || !prefersHtml(req)) return false;
  const available = Object.keys(page.variants ?? {}) as Encoding[];
  const coding = negotiateEncoding(req.get('accept-encoding'), available);
  const body = coding === 'identity' ? page.identity.body : page.variants![coding]!.body;
  res.writeHead(404, {
    ...PAGE_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    Vary: 'Accept, Accept-Encoding',
    ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
    'Content-Length': String(body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
