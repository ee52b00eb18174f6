/**
 * The service's one way out to the network (issue 30 item 5): HTTPS requests to URLs the service did not
 * choose itself — the hub's subscriber callbacks (sidecar/websub/callbacks/client.ts), the importer's
 * photo downloads (scripts/import/media-download.ts) and the Google sync's API calls (scripts/sync/).
 * Each user names what it fetches (`subject`), and every message says it: "the photo host … resolves to
 * a loopback address …, which imports do not fetch".
 *
 * - HTTPS only, Node's TLS defaults (so `NODE_EXTRA_CA_CERTS` is honoured); `ca` adds certificates for
 *   in-process tests, on top of the default ones.
 * - The host is resolved once, every resolved address must pass address-policy.ts, and the socket is
 *   opened to that very address through a pinned `lookup` (no second DNS answer, no rebinding).
 * - Connect timeout (DNS + TCP + TLS), then a response timeout (headers + body); at most
 *   `maxResponseBytes` of a body are read; redirects are never followed (a 3xx is just a status).
 * - Bounded concurrency, shared fairly between hosts (fair-slots.ts): per registrable domain, per
 *   address, and a reserve that a host with nothing in flight can always use.
 * Failures are values: `{ ok: false, reason }`.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import * as tls from 'node:tls';
import { checkAddress } from './address-policy.ts';
import { createFairSlots } from './fair-slots.ts';
import { registrableDomainOf } from './registrable-domain.ts';
import { clientKeyOf } from '../http/client-address.ts';

export type OutboundRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
};

/** `location`: the `Location` header, for a caller that follows redirects itself (the importer's photo downloads); `retryAfter`: the `Retry-After` header. */
export type OutboundResponse = { status: number; body: Buffer; truncated: boolean; location?: string; retryAfter?: string };

export type OutboundFailure = {
  ok: false;
  reason: 'invalid-url' | 'refused' | 'dns' | 'network' | 'timeout' | 'aborted';
  message: string;
};

export type OutboundResult = { ok: true; response: OutboundResponse } | OutboundFailure;

export type ResolvedAddress = { address: string; family: number };

export type OutboundClient = {
  /** Would a request to this URL be allowed (HTTPS, and every address its host resolves to)? */
  check(url: string): Promise<{ ok: true; address: ResolvedAddress } | OutboundFailure>;
  send(request: OutboundRequest): Promise<OutboundResult>;
  /** Closes idle kept-alive connections. */
  close(): void;
};

/**
 * What a client fetches, for its messages: `noun` ("the callback", "the photo") and the end of a refusal
 * ("which the hub does not call").
 */
export type OutboundSubject = { noun: string; refusal: string };

export type OutboundClientOptions = {
  subject: OutboundSubject;
  /** Loopback and private addresses allowed too (tests, intranets); cloud-metadata ones never. */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), added to Node's defaults. */
  ca?: string | readonly string[];
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  maxResponseBytes?: number;
  maxConcurrency?: number;
  /** Per registrable domain of the host. */
  maxConcurrencyPerHost?: number;
  maxConcurrencyPerAddress?: number;
  /** Slots a host with nothing in flight can always take, however many other hosts are busy (default: half). */
  reservedSlots?: number;
  /** DNS resolution; defaults to the system resolver (`dns.lookup`, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  userAgent?: string;
};

export const OUTBOUND_DEFAULTS = {
  connectTimeoutMs: 5_000,
  responseTimeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  maxConcurrency: 64,
  maxConcurrencyPerHost: 8,
  maxConcurrencyPerAddress: 8,
  userAgent: 'reviews-service/1.0',
} as const;

const resolveWithSystem = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const o = { ...OUTBOUND_DEFAULTS, ...withoutUndefined(options) };
  const { noun, refusal } = options.subject;
  const resolve = options.resolve ?? resolveWithSystem;
  const slots = createFairSlots({
    overall: o.maxConcurrency,
    perDomain: o.maxConcurrencyPerHost,
    perAddress: o.maxConcurrencyPerAddress,
    reserve: Math.min(options.reservedSlots ?? Math.floor(o.maxConcurrency / 2), o.maxConcurrency - 1),
  });
  const extraCa = options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  // tls.getCACertificates('default') includes NODE_EXTRA_CA_CERTS; a bare `ca` option would replace it.
  const ca = extraCa.length > 0 ? [...tls.getCACertificates('default'), ...extraCa] : undefined;
  // One TLS context for every connection: without it each new connection builds its own from the whole
  // CA store (milliseconds of CPU each, the largest cost of a fan-out that opens many connections).
  const secureContext = tls.createSecureContext(ca ? { ca } : {});
  // Every connection the limits allow stays open between deliveries (until 4 s idle): a socket dropped
  // from a full free list would cost a new TLS handshake on the next delivery.
  const agent = new Agent({ keepAlive: true, maxFreeSockets: o.maxConcurrency, timeout: 4_000, scheduling: 'lifo' });
  const link: Link = { noun, agent, secureContext, userAgent: o.userAgent, responseTimeoutMs: o.responseTimeoutMs, maxResponseBytes: o.maxResponseBytes };
  // Requests to one host at the same moment (a fan-out) share one resolution.
  const resolving = new Map<string, Promise<ResolvedAddress[] | undefined>>();

  const notAbsolute = (): OutboundFailure => ({ ok: false, reason: 'invalid-url', message: `${noun} is not an absolute URL` });

  async function check(rawUrl: string): Promise<{ ok: true; address: ResolvedAddress } | OutboundFailure> {
    const url = URL.parse(rawUrl);
    if (url === null) return notAbsolute();
    if (url.protocol !== 'https:') return { ok: false, reason: 'invalid-url', message: `${noun} must be an HTTPS URL` };
    const host = bareHost(url.hostname);
    let addresses: ResolvedAddress[];
    if (isIP(host)) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        const resolved = await resolveOnce(host);
        if (resolved === undefined) return { ok: false, reason: 'timeout', message: `resolving ${noun} host ${host} timed out` };
        addresses = resolved;
      } catch (err) {
        return { ok: false, reason: 'dns', message: `${noun} host ${host} does not resolve (${errorCode(err)})` };
      }
      if (addresses.length === 0) return { ok: false, reason: 'dns', message: `${noun} host ${host} has no address` };
    }
    for (const a of addresses) {
      const verdict = checkAddress(a.address, { allowPrivate: options.allowPrivate });
      if (!verdict.allowed) {
        return { ok: false, reason: 'refused', message: `${noun} host ${host} resolves to a ${verdict.category} address (${a.address}), ${refusal}` };
      }
    }
    return { ok: true, address: addresses[0]! };
  }

  function resolveOnce(host: string): Promise<ResolvedAddress[] | undefined> {
    let pending = resolving.get(host);
    if (!pending) {
      pending = withTimeout(resolve(host), o.connectTimeoutMs).finally(() => resolving.delete(host));
      resolving.set(host, pending);
    }
    return pending;
  }

  /**
   * The time limit (connect + response) counts the resolution, the wait behind this host's own earlier
   * requests (a slow host cannot keep its queue waiting for minutes) and the exchange; never the wait
   * behind other hosts.
   */
  async function send(request: OutboundRequest): Promise<OutboundResult> {
    const started = Date.now();
    const budgetMs = o.connectTimeoutMs + o.responseTimeoutMs;
    const checked = await check(request.url);
    if (!checked.ok) return checked;
    if (request.signal?.aborted) return cancelled();
    const host = bareHost(new URL(request.url).hostname).toLowerCase();
    const resolvedMs = Date.now() - started;
    const keys = { domain: registrableDomainOf(host), address: clientKeyOf(checked.address.address) };
    const slot = await slots.acquire(keys, { ownWaitLimitMs: Math.max(1, budgetMs - resolvedMs), signal: request.signal });
    if (slot === 'aborted') return cancelled();
    if (slot === 'timeout') return timedOut(noun, budgetMs);
    try {
      const left = Math.max(1, budgetMs - resolvedMs - slot.ownWaitMs);
      return await exchange(request, checked.address, { connectMs: Math.min(left, Math.max(1, o.connectTimeoutMs - resolvedMs)), totalMs: left, budgetMs }, link);
    } finally {
      slot.release();
    }
  }

  return { check, send, close: () => agent.destroy() };
}

/** What every exchange of one client shares: what it fetches (for messages), its connections and limits. */
type Link = { noun: string; agent: Agent; secureContext: tls.SecureContext; userAgent: string; responseTimeoutMs: number; maxResponseBytes: number };

function timedOut(noun: string, budgetMs: number): OutboundFailure {
  return { ok: false, reason: 'timeout', message: `${noun} did not answer within ${budgetMs} ms of being queued (time spent behind other hosts not counted)` };
}

/** One request over a socket pinned to `pinned`, within `limits`. */
function exchange(request: OutboundRequest, pinned: ResolvedAddress, limits: { connectMs: number; totalMs: number; budgetMs: number }, link: Link): Promise<OutboundResult> {
  const { noun, agent, secureContext } = link;
  const url = new URL(request.url);
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((done) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => finish(timedOut(noun, limits.budgetMs), true), limits.totalMs);
    const finish = (result: OutboundResult, destroy = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', onAbort);
      done(result);
      if (destroy) req.destroy();
    };
    const fail = (reason: OutboundFailure['reason'], message: string) => finish({ ok: false, reason, message }, true);
    const onAbort = () => finish(cancelled(), true);
    const headers: Record<string, string> = { 'user-agent': link.userAgent, ...request.headers };
    if (request.body) headers['content-length'] = String(request.body.length);
    // https.request hands `secureContext` on to tls.connect; its own option type does not list it.
    const options: RequestOptions & Pick<tls.ConnectionOptions, 'secureContext'> = {
      protocol: 'https:',
      hostname: bareHost(url.hostname),
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers,
      lookup: pinnedLookup,
      agent,
      secureContext,
    };
    const req = httpsRequest(options);
    const startResponseTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail('timeout', `${noun} did not answer within ${link.responseTimeoutMs} ms`), link.responseTimeoutMs);
    };
    timer = setTimeout(() => fail('timeout', `connecting to ${noun} took over ${limits.connectMs} ms`), limits.connectMs);
    req.on('socket', (socket) => {
      // A kept-alive socket is already connected; a new one is ready once the TLS handshake is done.
      if (socket.connecting) socket.once('secureConnect', startResponseTimer);
      else startResponseTimer();
    });
    req.on('error', (err) => fail('network', `${noun} could not be reached (${errorCode(err)})`));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const location = withoutUndefined({ location: res.headers.location, retryAfter: res.headers['retry-after'] });
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = link.maxResponseBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          finish({ ok: true, response: { status: res.statusCode ?? 0, body: Buffer.concat(chunks), truncated: true, ...location } });
          res.destroy();
          req.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => finish({ ok: true, response: { status: res.statusCode ?? 0, body: Buffer.concat(chunks), truncated: false, ...location } }));
      res.on('error', (err) => fail('network', `the answer from ${noun} broke off (${errorCode(err)})`));
    });
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(request.body);
  });
}

const cancelled = (): OutboundFailure => ({ ok: false, reason: 'aborted', message: 'the request was cancelled' });

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : String(err);
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
