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

/**
 * The callback host that per-host limits count by (concurrent requests, pending verifications,
 * subscriptions, fair delivery): the URL's host name, lower-cased, without the port.
 */
export function callbackHostOf(callback: string): string {
  return URL.parse(callback)?.hostname.toLowerCase() ?? '';
}
