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
import { compressLive, compressLiveOffLoop, LIVE_CODINGS, MIN_LIVE_COMPRESS_BYTES } from './live-compression.ts';

export type Body = { body: Buffer; etag: string };

export type Representation = {
  /** Headers every answer carries: Content-Type, Cache-Control, CORS, Link. */
  headers: Readonly<Record<string, string>>;
  lastModifiedMs: number;
  identity: Body;
  variants?: Partial<Record<Encoding, Body>>;
  /** A live answer: brotli and gzip are made on demand (live-compression.ts) instead of `variants`. */
  compress?: boolean;
  /** The answers' headers per coding, made once (prepareRepresentation) for a representation served many times. */
  prepared?: { codings: readonly Encoding[]; headers: ReadonlyMap<Encoding | 'identity', AnswerHeaders> };
};

type AnswerHeaders = { ok: Readonly<Record<string, string>>; notModified: Readonly<Record<string, string>> };

/** RFC 9110 §15.4.5: a 304 carries the validators and caching fields a 200 would, not the body's metadata. */
const HEADERS_KEPT_ON_304 = new Set([
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'link',
  'x-content-type-options',
]);

/**
 * Makes a built file's headers once, at load, instead of per request (issue 32: the 304 revalidation is
 * the hot path). A file dated in the future (a clock set back) keeps making them per request, so its
 * Last-Modified never runs ahead of the clock.
 */
export function prepareRepresentation(rep: Representation): Representation {
  if (rep.compress === true || rep.lastModifiedMs > Date.now()) return rep;
  const codings = codingsOf(rep);
  const headers = new Map<Encoding | 'identity', AnswerHeaders>();
  for (const coding of ['identity', ...codings] as const) headers.set(coding, answerHeaders(rep, coding, coding === 'identity' ? rep.identity : rep.variants![coding]!));
  return { ...rep, prepared: { codings, headers } };
}

export function sendRepresentation(req: IncomingMessage, res: ServerResponse, rep: Representation): void {
  const available = rep.prepared?.codings ?? codingsOf(rep);
  const coding = available.length === 0 ? 'identity' : negotiateEncoding(headerValue(req.headers['accept-encoding']), available);
  const stored = coding === 'identity' ? rep.identity : rep.variants?.[coding];
  const offLoop = stored === undefined ? compressLiveOffLoop(rep.identity, coding as Encoding) : undefined;
  if (offLoop !== undefined) {
    // A large live answer: sent once compressed on the thread pool; identity if that fails.
    offLoop.then(
      (selected) => answer(req, res, rep, coding, selected),
      () => answer(req, res, rep, 'identity', rep.identity),
    );
    return;
  }
  answer(req, res, rep, coding, stored ?? compressLive(rep.identity, coding as Encoding));
}

function answer(req: IncomingMessage, res: ServerResponse, rep: Representation, coding: Encoding | 'identity', selected: Body): void {
  if (res.destroyed) return;
  const outcome = evaluatePreconditions(req.method ?? 'GET', req.headers, {
    etag: selected.etag,
    lastModifiedMs: rep.lastModifiedMs,
  });
  if (outcome === 'failed') {
    sendError(res, 412, 'precondition_failed', 'The resource does not match the request preconditions.');
    return;
  }
  const headers = rep.prepared?.headers.get(coding) ?? answerHeaders(rep, coding, selected);
  if (outcome === 'not-modified') {
    res.writeHead(304, headers.notModified);
    res.end();
    return;
  }
  res.writeHead(200, headers.ok);
  res.end(req.method === 'HEAD' ? undefined : selected.body);
}

function codingsOf(rep: Representation): readonly Encoding[] {
  if (rep.compress === true) return rep.identity.body.length >= MIN_LIVE_COMPRESS_BYTES ? LIVE_CODINGS : [];
  return rep.variants === undefined ? [] : (Object.keys(rep.variants) as Encoding[]);
}

function answerHeaders(rep: Representation, coding: Encoding | 'identity', selected: Body): AnswerHeaders {
  const lastModified = new Date(Math.min(rep.lastModifiedMs, Date.now())).toUTCString();
  const vary = codingsOf(rep).length > 0 ? { Vary: 'Accept-Encoding' } : undefined;
  const kept = Object.fromEntries(Object.entries(rep.headers).filter(([k]) => HEADERS_KEPT_ON_304.has(k.toLowerCase())));
  return {
    notModified: { ...kept, ...vary, ETag: selected.etag, 'Last-Modified': lastModified },
    ok: {
      ...rep.headers,
      ...vary,
      ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
      ETag: selected.etag,
      'Last-Modified': lastModified,
      'Content-Length': String(selected.body.length),
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
