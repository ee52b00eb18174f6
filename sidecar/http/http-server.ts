/**
 * The sidecar's HTTP server and its defences against slow or abusive clients (issue 10 item 3):
 *
 * - `headersTimeout` (10 s) and `requestTimeout` (30 s) are enforced every second
 *   (`connectionsCheckingInterval`; Node's default, 30 s, let partial-header connections pile up);
 * - a connection budget (`MAX_CONNECTIONS`) keeps the process below its file-descriptor limit. When it is
 *   full, a new connection closes a connection that has no request in progress (one that has not finished
 *   its headers, or an idle keep-alive one) instead of being refused: the oldest one of the client address
 *   (IPv6 by /64) that holds the most such connections. Slow-header attackers from a hundred addresses
 *   that re-open as fast as they are cut then only ever cut each other, never the one connection of a
 *   legitimate client (issue 24 item 7). Only when every connection is busy with a request is the new one
 *   dropped;
 * - a listen backlog of LISTEN_BACKLOG (the kernel caps it at `net.core.somaxconn`), so a legitimate
 *   client's connection waits in the queue behind the attackers' re-openings instead of being dropped;
 * - a per-address cap (IPv6 by /64): a connection past it gets a 503 JSON answer and is closed, so one
 *   client cannot hold every connection. Behind a reverse proxy every connection comes from the proxy:
 *   raise or disable the cap there (0);
 * - errors of Node's HTTP parser (431 oversized headers, 400 malformed request line, 408 timeout) and an
 *   unsupported `Expect` (417) are answered with the service's JSON error body, as everything else is.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { clientKeyOf } from './client-address.ts';
import { sendError } from './errors.ts';

export type ConnectionLimits = {
  /** Most open connections in all. */
  max: number;
  /** Most open connections from one address (IPv6 by /64); 0: no cap. */
  perAddress: number;
};

export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckingIntervalMs: 1_000,
} as const;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export function createHttpServer(listener: Listener, limits: ConnectionLimits): Server {
  const server = createServer({
    headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
    requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingIntervalMs,
  });
  server.maxHeadersCount = 100;
  const budget = budgetConnections(server, limits.max);
  // One 'request' listener: the budget's mark and the service, in one call.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    budget.track(req, res);
    listener(req, res);
  });
  if (limits.perAddress > 0) capConnectionsPerAddress(server, limits.perAddress);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendError(res, 417, 'expectation_failed', 'Only "Expect: 100-continue" is supported.');
  });
  return server;
}

/** Node's default is 511; a flood of re-opened connections overflows that and drops others' SYNs. */
export const LISTEN_BACKLOG = 4096;

/**
 * Keeps at most `max` connections open. `open` holds every connection per client address, oldest first;
 * `byCount` groups the addresses by how many they hold, so the address holding the most is found at once,
 * whatever the number of addresses. The one closed to make room is that address's oldest connection with
 * no request in progress (the `BUSY` mark, set for the time of each request), or failing that, the next
 * address's. The marks cost one property write per request; the walk happens only when the budget is full.
 */
function budgetConnections(server: Server, max: number): { track: (req: IncomingMessage, res: ServerResponse) => void } {
  const open = new Map<string, Set<Socket>>();
  const byCount = new Map<number, Set<string>>();
  let most = 0;
  let total = 0;
  const move = (key: string, from: number, to: number) => {
    const bucket = byCount.get(from);
    bucket?.delete(key);
    if (bucket?.size === 0) byCount.delete(from);
    if (to > 0) {
      if (!byCount.has(to)) byCount.set(to, new Set());
      byCount.get(to)!.add(key);
    }
    if (to > most) most = to;
    while (most > 0 && !byCount.has(most)) most -= 1;
  };
  const idleOf = (key: string, except: Socket): Socket | undefined => {
    for (const socket of open.get(key) ?? []) if (!(socket as Tracked)[BUSY] && socket !== except) return socket;
    return undefined;
  };
  server.on('connection', (socket: Socket) => {
    total += 1;
    const key = clientKeyOf(socket.remoteAddress);
    const sockets = open.get(key) ?? new Set<Socket>();
    open.set(key, sockets.add(socket));
    move(key, sockets.size - 1, sockets.size);
    socket.once('close', () => {
      total -= 1;
      sockets.delete(socket);
      if (sockets.size === 0) open.delete(key);
      move(key, sockets.size + 1, sockets.size);
    });
    if (total <= max) return;
    for (let count = most; count > 0; count--) {
      for (const address of byCount.get(count) ?? []) {
        const victim = idleOf(address, socket);
        if (victim) return void victim.destroy();
      }
    }
    // Every other connection is busy with a request: the new one is the one to go.
    socket.destroy();
  });
  return {
    track(req, res) {
      (req.socket as Tracked)[BUSY] = true;
      res.on('close', markIdle);
    },
  };
}

const BUSY = Symbol('busy');
type Tracked = Socket & { [BUSY]?: boolean };

function markIdle(this: ServerResponse): void {
  (this.req.socket as Tracked)[BUSY] = false;
}

function capConnectionsPerAddress(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientKeyOf(socket.remoteAddress);
    const count = (open.get(key) ?? 0) + 1;
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
    if (count > cap) {
      const body = JSON.stringify({ error: 'too_many_connections', message: `At most ${cap} connections from one address at a time.` });
      socket.end(rawResponse(503, body, { 'Retry-After': '5' }));
    }
  });
}

/** Node's parser failed before any request object existed: answer on the socket itself, in JSON. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large (at most 16 KiB).']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time.']
        : [400, 'bad_request', 'The request could not be parsed as HTTP/1.1 (check the request line and header syntax).'];
  socket.end(rawResponse(status, JSON.stringify({ error: code, message })));
}

function rawResponse(status: number, body: string, headers: Record<string, string> = {}): string {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
