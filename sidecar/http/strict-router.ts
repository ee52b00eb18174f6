/**
 * Every live route matches its documented path exactly, as the static files do: `/API/REVIEWS/SEARCH`,
 * `/api/reviews/search/` and `POST /MCP/` are 404, so proxy and CDN rules written for the documented
 * paths cannot be sidestepped by another spelling. Express matches case-insensitively and ignores a
 * trailing slash by default.
 */
import { Router } from 'express';

export function createStrictRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}
