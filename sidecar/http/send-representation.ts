/**
 * Sends one resource with content negotiation and conditional-request handling, for static files
 * and live since answers alike. Each coding of a resource is its own representation with its own
 * strong ETag, hence `Vary: Accept-Encoding` wherever a resource has more than one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Encoding } from '../../core/publishing/manifest.ts';
import { negotiateEncoding } from './accept-encoding.ts';
import { evaluatePreconditions } from './conditional.ts';
import { sendError } from './errors.ts';
import { compressLive, LIVE_CODINGS, MIN_LIVE_COMPRESS_BYTES } from './live-compression.ts';

export type Body = { body: Buffer; etag: string };

export type Representation = {
  /** Headers every answer carries: Content-Type, Cache-Control, CORS, Link. */
  headers: Readonly<Record<string, string>>;
  lastModifiedMs: number;
  identity: Body;
  variants?: Partial<Record<Encoding, Body>>;
  /** A live answer: brotli and gzip are made on demand (live-compression.ts) instead of `variants`. */
  compress?: boolean;
};

/** RFC 9110 §15.4.5: a 304 carries the validators and caching fields a 200 would, not the body's metadata. */
const HEADERS_KEPT_ON_304 = new Set([
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'link',
  'x-content-type-options',
]);

export function sendRepresentation(req: IncomingMessage, res: ServerResponse, rep: Representation): void {
  const live = rep.compress === true && rep.identity.body.length >= MIN_LIVE_COMPRESS_BYTES;
  const available = live ? LIVE_CODINGS : (Object.keys(rep.variants ?? {}) as Encoding[]);
  const coding = negotiateEncoding(headerValue(req.headers['accept-encoding']), available);
  const selected = coding === 'identity' ? rep.identity : (rep.variants?.[coding] ?? compressLive(rep.identity, coding));
  const lastModified = new Date(Math.min(rep.lastModifiedMs, Date.now())).toUTCString();
  const vary = available.length > 0 ? { Vary: 'Accept-Encoding' } : undefined;

  const outcome = evaluatePreconditions(req.method ?? 'GET', req.headers, {
    etag: selected.etag,
    lastModifiedMs: rep.lastModifiedMs,
  });
  if (outcome === 'failed') {
    sendError(res, 412, 'precondition_failed', 'The resource does not match the request preconditions.');
    return;
  }
  if (outcome === 'not-modified') {
    const kept = Object.fromEntries(Object.entries(rep.headers).filter(([k]) => HEADERS_KEPT_ON_304.has(k.toLowerCase())));
    res.writeHead(304, { ...kept, ...vary, ETag: selected.etag, 'Last-Modified': lastModified });
    res.end();
    return;
  }
  res.writeHead(200, {
    ...rep.headers,
    ...vary,
    ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
    ETag: selected.etag,
    'Last-Modified': lastModified,
    'Content-Length': String(selected.body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : selected.body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
