/**
 * Token buckets per client address, in memory (each instance limits on its own). A client may burst
 * `capacity` requests and then `refillPerSecond` on average; a refused request learns how many seconds
 * until a token is back (Retry-After). Buckets of idle clients are dropped once `maxClients` is reached,
 * so a flood of addresses cannot grow memory without bound.
 *
 * `createRateLimitMiddleware` is the one Express adapter: the client is `req.ip` (so the app's `trust
 * proxy` setting decides the address behind a proxy), IPv6 by /64 (client-address.ts); a refused request
 * gets `Retry-After` and the surface's own error body.
 */
import type { RequestHandler, Response } from 'express';
import { clientKeyOf } from './client-address.ts';

export type RateLimitOptions = { capacity: number; refillPerSecond: number; maxClients?: number };

export type RateLimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export type RateLimiter = { take(client: string): RateLimitVerdict };

type Bucket = { tokens: number; at: number };

export function createRateLimiter(options: RateLimitOptions, now: () => number = () => performance.now()): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const maxClients = options.maxClients ?? 10_000;

  const refill = (bucket: Bucket, at: number) => {
    bucket.tokens = Math.min(options.capacity, bucket.tokens + ((at - bucket.at) / 1000) * options.refillPerSecond);
    bucket.at = at;
  };

  const makeRoom = (at: number) => {
    for (const [client, bucket] of buckets) {
      refill(bucket, at);
      if (bucket.tokens >= options.capacity) buckets.delete(client);
    }
    // Still full of active clients: forget the least recently seen (Map keeps insertion order).
    for (const client of buckets.keys()) {
      if (buckets.size < maxClients) break;
      buckets.delete(client);
    }
  };

  return {
    take(client) {
      const at = now();
      let bucket = buckets.get(client);
      if (bucket) {
        buckets.delete(client);
        refill(bucket, at);
      } else {
        if (buckets.size >= maxClients) makeRoom(at);
        bucket = { tokens: options.capacity, at };
      }
      buckets.set(client, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / options.refillPerSecond)) };
    },
  };
}

/** Limits each client address; `refuse` writes the 429 body in the surface's own shape (Retry-After is set). */
export function createRateLimitMiddleware(options: RateLimitOptions, refuse: (res: Response, retryAfterSeconds: number) => void): RequestHandler {
  const limiter = createRateLimiter(options);
  return (req, res, next) => {
    const verdict = limiter.take(clientKeyOf(req.ip ?? req.socket.remoteAddress));
    if (verdict.ok) return next();
    res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
    refuse(res, verdict.retryAfterSeconds);
  };
}
