/**
 * Compression of live answers (search, since dates without a snapshot), negotiated like the static
 * files' precompressed variants: brotli or gzip by Accept-Encoding, each coding with its own strong
 * ETag. Live answers are compressed when asked for, at levels that cost about a millisecond per 100 KB
 * (the build spends far more on the static files, once); a body is compressed once per coding and kept
 * as long as the body itself is cached (the since answers of a build).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { strongEtag, type Encoding } from '../../core/publishing/manifest.ts';
import type { Body } from './send-representation.ts';

/** Below this, compression saves too little to pay for itself (the build uses the same threshold). */
export const MIN_LIVE_COMPRESS_BYTES = 256;
export const LIVE_CODINGS: readonly Encoding[] = ['br', 'gzip'];

const compressed = new WeakMap<Body, Map<Encoding, Body>>();

export function compressLive(identity: Body, coding: Encoding): Body {
  let codings = compressed.get(identity);
  if (!codings) compressed.set(identity, (codings = new Map()));
  const hit = codings.get(coding);
  if (hit) return hit;
  const body =
    coding === 'br'
      ? brotliCompressSync(identity.body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: identity.body.length },
        })
      : gzipSync(identity.body, { level: 6 });
  const variant = { body, etag: strongEtag(body) };
  codings.set(coding, variant);
  return variant;
}
