/**
 * DNS-rebinding protection (MCP 2025-06-18 "Transports", security warning): a browser request whose
 * `Origin` is neither the service's own public origin nor in MCP_ALLOWED_ORIGINS is refused. Requests
 * without `Origin` come from non-browser clients (CLIs, desktop apps, agents) and pass.
 */
export type OriginPolicy = {
  /** True when a request with this `Origin` header (or none) may use /mcp. */
  allows(origin: string | undefined): boolean;
};

export function createOriginPolicy(input: { publicUrl: string; allowedOrigins: readonly string[] | '*' }): OriginPolicy {
  if (input.allowedOrigins === '*') return { allows: () => true };
  const allowed = new Set([normalizeOrigin(input.publicUrl), ...input.allowedOrigins.map(normalizeOrigin)]);
  return { allows: (origin) => origin === undefined || allowed.has(normalizeOrigin(origin)) };
}

/** `https://Example.com:443/` and `https://example.com` are the same origin. */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? origin : url.origin;
  } catch {
    return origin;
  }
}
