/**
 * The hub's only way out to the network: HTTPS requests to subscriber callbacks.
 *
 * - HTTPS only, Node's TLS defaults (so `NODE_EXTRA_CA_CERTS` is honoured); `ca` adds certificates for
 *   in-process tests, on top of the default ones.
 * - The host is resolved once, every resolved address must pass address-policy.ts, and the socket is
 *   opened to that very address through a pinned `lookup` (no second DNS answer, no rebinding).
 * - Connect timeout (DNS + TCP + TLS), then a response timeout (headers + body); at most
 *   `maxResponseBytes` of a body are read; redirects are never followed (a 3xx is just a status).
 * - Bounded concurrency overall and per callback host.
 * Failures are values: `{ ok: false, reason }`.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import * as tls from 'node:tls';
import { checkAddress } from './address-policy.ts';
import { callbackHostOf, registrableDomainOf } from './callback-url.ts';
import { createConcurrencyLimiter } from '../../core/concurrency-limiter.ts';

export type CallbackRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
};

/** `location`: the `Location` header, for a caller that follows redirects itself (the importer's photo downloads). */
export type CallbackResponse = { status: number; body: Buffer; truncated: boolean; location?: string };

export type CallbackFailure = {
  ok: false;
  reason: 'invalid-url' | 'refused' | 'dns' | 'network' | 'timeout' | 'aborted';
  message: string;
};

export type CallbackResult = { ok: true; response: CallbackResponse } | CallbackFailure;

export type ResolvedAddress = { address: string; family: number };

export type CallbackClient = {
  /** Would a request to this URL be allowed (HTTPS, and every address its host resolves to)? */
  check(url: string): Promise<{ ok: true; address: ResolvedAddress } | CallbackFailure>;
  send(request: CallbackRequest): Promise<CallbackResult>;
  /** Closes idle kept-alive connections. */
  close(): void;
};

export type CallbackClientOptions = {
  allowPrivateCallbacks: boolean;
  /** Extra trusted CA certificates (PEM), added to Node's defaults. */
  ca?: string | readonly string[];
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  maxResponseBytes?: number;
  maxConcurrency?: number;
  maxConcurrencyPerHost?: number;
  /** DNS resolution; defaults to the system resolver (`dns.lookup`, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  userAgent?: string;
};

export const CALLBACK_CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  responseTimeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  maxConcurrency: 64,
  maxConcurrencyPerHost: 8,
  userAgent: 'reviews-service-websub-hub/1.0',
} as const;

const resolveWithSystem = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

export function createCallbackClient(options: CallbackClientOptions): CallbackClient {
  const o = { ...CALLBACK_CLIENT_DEFAULTS, ...withoutUndefined(options), allowPrivateCallbacks: options.allowPrivateCallbacks };
  const resolve = options.resolve ?? resolveWithSystem;
  const limiter = createConcurrencyLimiter({ overall: o.maxConcurrency, perKey: o.maxConcurrencyPerHost });
  const extraCa = options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  // tls.getCACertificates('default') includes NODE_EXTRA_CA_CERTS; a bare `ca` option would replace it.
  const ca = extraCa.length > 0 ? [...tls.getCACertificates('default'), ...extraCa] : undefined;
  // One TLS context for every connection: without it each new connection builds its own from the whole
  // CA store (milliseconds of CPU each, the largest cost of a fan-out that opens many connections).
  const secureContext = tls.createSecureContext(ca ? { ca } : {});
  // Every connection the limits allow stays open between deliveries (until 4 s idle): a socket dropped
  // from a full free list would cost a new TLS handshake on the next delivery.
  const agent = new Agent({ keepAlive: true, maxFreeSockets: o.maxConcurrency, timeout: 4_000, scheduling: 'lifo' });

  async function check(rawUrl: string): Promise<{ ok: true; address: ResolvedAddress } | CallbackFailure> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { ok: false, reason: 'invalid-url', message: 'the callback is not an absolute URL' };
    }
    if (url.protocol !== 'https:') return { ok: false, reason: 'invalid-url', message: 'the callback must be an HTTPS URL' };
    const host = bareHost(url.hostname);
    let addresses: ResolvedAddress[];
    if (isIP(host)) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        const resolved = await withTimeout(resolve(host), o.connectTimeoutMs);
        if (resolved === undefined) return { ok: false, reason: 'timeout', message: `resolving the callback host ${host} timed out` };
        addresses = resolved;
      } catch (err) {
        return { ok: false, reason: 'dns', message: `the callback host ${host} does not resolve (${errorCode(err)})` };
      }
      if (addresses.length === 0) return { ok: false, reason: 'dns', message: `the callback host ${host} has no address` };
    }
    for (const a of addresses) {
      const verdict = checkAddress(a.address, { allowPrivate: o.allowPrivateCallbacks });
      if (!verdict.allowed) {
        return {
          ok: false,
          reason: 'refused',
          message: `the callback host ${host} resolves to a ${verdict.category} address (${a.address}), which the hub does not call`,
        };
      }
    }
    return { ok: true, address: addresses[0]! };
  }

  function send(request: CallbackRequest): Promise<CallbackResult> {
    const host = callbackHostOf(request.url);
    if (host === '') return Promise.resolve({ ok: false, reason: 'invalid-url', message: 'the callback is not an absolute URL' });
    // The time limits run from the moment a request is queued, not from when a slot of its host frees up:
    // a host that answers slowly cannot keep its queue waiting for minutes.
    const budgetMs = o.connectTimeoutMs + o.responseTimeoutMs;
    // One controller per request, its timer cleared and its listener removed as soon as it settles
    // (AbortSignal.timeout and AbortSignal.any kept every request's signal and timer alive for the whole
    // budget: tens of thousands at once during a fan-out, and the garbage collector's pauses with them).
    const controller = new AbortController();
    let budgetSpent = false;
    const timer = setTimeout(() => {
      budgetSpent = true;
      controller.abort();
    }, budgetMs).unref();
    const cancel = () => controller.abort();
    if (request.signal?.aborted) cancel();
    else request.signal?.addEventListener('abort', cancel, { once: true });
    const signal = controller.signal;
    // Per-host slots are shared by every name of one registrable domain (a wildcard domain is one host).
    return limiter
      .run(registrableDomainOf(host), () => sendNow({ ...request, signal }), signal)
      .then((result): CallbackResult => (!result.ok && result.reason === 'aborted' && !request.signal?.aborted ? timedOut(budgetMs) : result))
      .catch((err: unknown): CallbackResult => {
        if (request.signal?.aborted) return { ok: false, reason: 'aborted', message: 'the request was cancelled' };
        if (budgetSpent) return timedOut(budgetMs);
        throw err;
      })
      .finally(() => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', cancel);
      });
  }

  function timedOut(budgetMs: number): CallbackFailure {
    return { ok: false, reason: 'timeout', message: `the callback did not answer within ${budgetMs} ms of being queued` };
  }

  async function sendNow(request: CallbackRequest): Promise<CallbackResult> {
    const started = Date.now();
    const checked = await check(request.url);
    if (!checked.ok) return checked;
    const remaining = Math.max(1, o.connectTimeoutMs - (Date.now() - started));
    return exchange(request, checked.address, remaining);
  }

  function exchange(request: CallbackRequest, pinned: ResolvedAddress, connectTimeoutMs: number): Promise<CallbackResult> {
    const url = new URL(request.url);
    const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    };
    return new Promise((done) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (result: CallbackResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        done(result);
      };
      const fail = (reason: CallbackFailure['reason'], message: string) => {
        finish({ ok: false, reason, message });
        req.destroy();
      };
      const onAbort = () => fail('aborted', 'the request was cancelled');
      const headers: Record<string, string> = { 'user-agent': o.userAgent, ...request.headers };
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
        timer = setTimeout(() => fail('timeout', `the callback did not answer within ${o.responseTimeoutMs} ms`), o.responseTimeoutMs);
      };
      timer = setTimeout(() => fail('timeout', `connecting to the callback took over ${connectTimeoutMs} ms`), connectTimeoutMs);
      req.on('socket', (socket) => {
        // A kept-alive socket is already connected; a new one is ready once the TLS handshake is done.
        if (socket.connecting) socket.once('secureConnect', startResponseTimer);
        else startResponseTimer();
      });
      req.on('error', (err) => fail('network', `the callback could not be reached (${errorCode(err)})`));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        const location = res.headers.location === undefined ? {} : { location: res.headers.location };
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = o.maxResponseBytes - size;
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
        res.on('error', (err) => fail('network', `the callback's answer broke off (${errorCode(err)})`));
      });
      if (request.signal?.aborted) return onAbort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      req.end(request.body);
    });
  }

  return { check, send, close: () => agent.destroy() };
}

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
