import { registrableDomainOf } from '../../outbound/registrable-domain.ts';

export { registrableDomainOf };

/**
 * WebSub §5.3: the hub appends its `hub.*` parameters to the callback URL and keeps the callback's own
 * query string exactly as the subscriber wrote it (re-serialising it could change its encoding).
 * A fragment is never sent.
 */
export function appendHubQuery(callback: string, params: Record<string, string>): string {
  const withoutFragment = callback.replace(/#.*$/s, '');
  const query = new URLSearchParams(params).toString();
  if (!withoutFragment.includes('?')) return `${withoutFragment}?${query}`;
  return withoutFragment.endsWith('?') || withoutFragment.endsWith('&') ? `${withoutFragment}${query}` : `${withoutFragment}&${query}`;
}

/** The callback URL's host name, lower-cased, without the port. */
export function callbackHostOf(callback: string): string {
  return URL.parse(callback)?.hostname.toLowerCase() ?? '';
}

/** The registrable domain of a callback URL's host (see `registrableDomainOf`). */
export function callbackDomainOf(callback: string): string {
  return registrableDomainOf(callbackHostOf(callback));
}
