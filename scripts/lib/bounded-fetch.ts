/**
 * One GET of a file from a server that may be hostile (issue 40 item 2): `npm run verify` and the build's
 * reader of a published log fetch through this, never through bare `fetch`.
 *
 * - At most `maxBytes`: a larger Content-Length is refused before the body, and a body that runs past it
 *   is cut off there, so an endless answer costs `maxBytes` of memory, no more.
 * - Within `timeoutMs` for the whole exchange, headers and body (a server that accepts and never answers,
 *   or answers a byte a minute), and within `signal`, the caller's deadline for its whole run.
 * - Redirects are followed only within the origin of the URL asked for (at most 5): a log and its files
 *   are one site's, and another host is never contacted on its say-so.
 * - 404 and 410 are "absent"; any other answer but 2xx is a failure that says what it was.
 */
export type BoundedFetchOptions = {
  maxBytes: number;
  timeoutMs: number;
  /** The caller's deadline for everything it fetches. */
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
};

export type BoundedFetchResult = { ok: true; bytes: Buffer; url: string } | { ok: 'absent'; url: string } | { ok: false; reason: string };

const MAX_REDIRECTS = 5;

export async function fetchBounded(url: string, options: BoundedFetchOptions): Promise<BoundedFetchResult> {
  const fetchImpl = options.fetch ?? fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const origin = new URL(url).origin;
  let at = url;
  try {
    for (let hops = 0; ; hops++) {
      const res = await fetchImpl(at, { redirect: 'manual', signal });
      if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
        await res.body?.cancel();
        const next = new URL(res.headers.get('location')!, at);
        if (next.origin !== origin) return { ok: false, reason: `${at} redirects to ${next.origin}, another host: not followed` };
        if (hops >= MAX_REDIRECTS) return { ok: false, reason: `${url} redirects more than ${MAX_REDIRECTS} times` };
        at = next.href;
        continue;
      }
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return { ok: 'absent', url: at };
      }
      if (!res.ok) {
        await res.body?.cancel();
        return { ok: false, reason: `${at} answered ${res.status}` };
      }
      const bytes = await readBody(res, options.maxBytes);
      return bytes === undefined ? { ok: false, reason: `${at} sends more than ${options.maxBytes} bytes, more than such a file can hold` } : { ok: true, bytes, url: at };
    }
  } catch (error) {
    if (timeout.aborted) return { ok: false, reason: `${at} did not answer in full within ${options.timeoutMs / 1000} s` };
    if (options.signal?.aborted) return { ok: false, reason: `${at} was still being read when the deadline for the whole run passed` };
    const cause = (error as Error).cause;
    return { ok: false, reason: `could not fetch ${at}: ${cause instanceof Error ? cause.message : (error as Error).message}` };
  }
}

/** The body, or undefined as soon as it is over `maxBytes` (the rest never read). */
async function readBody(res: Response, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes || !res.body) {
    await res.body?.cancel();
    return declared > maxBytes ? undefined : Buffer.alloc(0);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
