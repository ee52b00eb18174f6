/**
 * Compression of live answers (search, since dates without a snapshot), negotiated like the static
 * files' precompressed variants: brotli or gzip by Accept-Encoding, each coding with its own strong
 * ETag. Live answers are compressed when asked for, at levels that cost about a millisecond per 100 KB
 * (the build spends far more on the static files, once); a body is compressed once per coding and kept
 * as long as the body itself is cached (the since answers of a build). A body of ASYNC_COMPRESS_BYTES or
 * more is compressed on libuv's thread pool, so a large answer does not hold up the others (issue 32).
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { strongEtag, type Encoding } from '../../core/publishing/manifest.ts';
import type { Body } from './send-representation.ts';

/** Below this, compression saves too little to pay for itself (the build uses the same threshold). */
export const MIN_LIVE_COMPRESS_BYTES = 256;
export const LIVE_CODINGS: readonly Encoding[] = ['br', 'gzip'];
/** From this size on (a search page of a few reviews), answers are compressed off the event loop. */
export const ASYNC_COMPRESS_BYTES = 4 * 1024;

const compressed = new WeakMap<Body, Map<Encoding, Body>>();

export function compressLive(identity: Body, coding: Encoding): Body {
  const hit = compressed.get(identity)?.get(coding);
  if (hit) return hit;
  const body =
    coding === 'br'
      ? brotliCompressSync(identity.body, brotliOptions(identity))
      : gzipSync(identity.body, GZIP_OPTIONS);
  return keep(identity, coding, body);
}

/** The same, on the thread pool; undefined when it is already made (then `compressLive` returns it at once). */
export function compressLiveOffLoop(identity: Body, coding: Encoding): Promise<Body> | undefined {
  if (identity.body.length < ASYNC_COMPRESS_BYTES || compressed.get(identity)?.has(coding)) return undefined;
  const made = coding === 'br' ? brotliAsync(identity.body, brotliOptions(identity)) : gzipAsync(identity.body, GZIP_OPTIONS);
  return made.then((body) => compressed.get(identity)?.get(coding) ?? keep(identity, coding, body));
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const GZIP_OPTIONS = { level: 6 };

function brotliOptions(identity: Body) {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: identity.body.length } };
}

function keep(identity: Body, coding: Encoding, body: Buffer): Body {
  let codings = compressed.get(identity);
  if (!codings) compressed.set(identity, (codings = new Map()));
  const variant = { body, etag: strongEtag(body) };
  codings.set(coding, variant);
  return variant;
}
