/**
 * Conditional requests (RFC 9110 §13). Evaluation order per §13.2.2: If-Match, then
 * If-Unmodified-Since (only without If-Match), then If-None-Match, then If-Modified-Since (only
 * without If-None-Match, and only for GET and HEAD). Entity tags in If-None-Match use the weak
 * comparison (§8.8.3.2); If-Match uses the strong one.
 */

export type Precondition = 'proceed' | 'not-modified' | 'failed';

type Headers = { [name: string]: string | string[] | undefined };

/** Parses an entity-tag list; `*` is returned as the single element `'*'`. Tags keep their quotes. */
export function parseEntityTags(value: string): { tags: { weak: boolean; opaque: string }[]; any: boolean } {
  if (value.trim() === '*') return { tags: [], any: true };
  const tags: { weak: boolean; opaque: string }[] = [];
  for (const match of value.matchAll(/(W\/)?("[^"]*")/g)) tags.push({ weak: Boolean(match[1]), opaque: match[2]! });
  return { tags, any: false };
}

function opaqueOf(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}

/** HTTP-date parsing that refuses anything Date.parse would guess at (RFC 9110 §5.6.7: invalid → ignore). */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (!value || value.length > 64) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function single(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function matchesAny(ifNoneMatch: string, etag: string): boolean {
  const { tags, any } = parseEntityTags(ifNoneMatch);
  return any || tags.some((t) => t.opaque === opaqueOf(etag));
}

export function evaluatePreconditions(
  method: string,
  headers: Headers,
  current: { etag: string; lastModifiedMs: number },
): Precondition {
  const ifMatch = single(headers, 'if-match');
  if (ifMatch !== undefined) {
    const { tags, any } = parseEntityTags(ifMatch);
    const strongMatch = tags.some((t) => !t.weak && !current.etag.startsWith('W/') && t.opaque === current.etag);
    if (!any && !strongMatch) return 'failed';
  } else {
    const since = parseHttpDate(single(headers, 'if-unmodified-since'));
    if (since !== undefined && Math.floor(current.lastModifiedMs / 1000) * 1000 > since) return 'failed';
  }
  const isRead = method === 'GET' || method === 'HEAD';
  const ifNoneMatch = single(headers, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    // §13.1.2: If-None-Match takes precedence; If-Modified-Since is then ignored.
    // The usual revalidation sends back exactly the ETag it was given: no list to parse.
    const matches = ifNoneMatch === current.etag || matchesAny(ifNoneMatch, current.etag);
    if (!matches) return 'proceed';
    return isRead ? 'not-modified' : 'failed';
  }
  if (isRead) {
    const since = parseHttpDate(single(headers, 'if-modified-since'));
    if (since !== undefined && Math.floor(current.lastModifiedMs / 1000) * 1000 <= since) return 'not-modified';
  }
  return 'proceed';
}
