/**
 * The CORS preflight of every read route, static or live (Fetch §3.2.2): any origin may send GET and
 * HEAD with the revalidation and negotiation headers, so cross-origin apps can use `If-None-Match`.
 */
import type { ServerResponse } from 'node:http';

export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

export function sendReadPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    Allow: READ_METHODS.join(', '),
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, HEAD',
    'Access-Control-Allow-Headers': 'If-None-Match, If-Modified-Since, If-Match, Accept-Encoding',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
}
