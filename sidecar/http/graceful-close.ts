/**
 * A stop that loses no request (issue 29 item 2), in three steps:
 *
 * 1. **Drain** (`drainMs`): the caller has already turned `/readyz` to 503; the listener still accepts,
 *    and every answer says `Connection: close`, so a proxy's health check moves traffic away while
 *    nothing is refused. Closing a listening socket resets the connections still waiting in the kernel's
 *    accept queue (accepted by the kernel, never answered), so the longer the drain, the fewer arrive then.
 * 2. **Close**: no new connection. First, with or without a drain, the connections already waiting in
 *    the accept queue are taken: the listener closes only after a turn of the event loop (whose poll
 *    accepts everything queued) took none, so a request that reached the service before the stop is
 *    answered even with the default settings (40 requests 5 ms before a SIGTERM lost 29 without this).
 *    Then no new connection. After a drain, keep-alive connections that sat idle through it are
 *    closed (their clients have moved on); without one they are left to their next answer, which says
 *    `Connection: close`, or to their keep-alive timeout (5 s), since closing one can reset a request
 *    already on its way. A connection that has not sent its first request yet is always left to send it
 *    (Node's `closeIdleConnections` would reset it).
 * 3. **Finish** (`timeoutMs`): requests in flight finish; what is still open then is cut and counted.
 */
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { RequestFront } from './request-front.ts';

export type CloseReport = {
  /** `clean`: every request in flight finished; `forced`: some were cut at the time limit. */
  outcome: 'clean' | 'forced';
  /** Requests in flight when the listener closed. */
  inFlight: number;
  /** Connections still open at the time limit, closed then. */
  cutConnections: number;
  ms: number;
};

/**
 * `onBegun` is called once the stop has begun: at the drain's start, or, without a drain, once the
 * listener is closed (so whoever reads what it logs and connects is refused, not answered by a listener
 * about to close).
 */
export type CloseLimits = { drainMs: number; timeoutMs: number; onBegun?: () => void };

export type GracefulClose = { close(limits: CloseLimits): Promise<CloseReport> };

/** Call before the server listens: the front (request-front.ts) follows which connections sit idle after an answer. */
export function prepareGracefulClose(server: Server, front: RequestFront): GracefulClose {
  server.on('connection', (socket: Socket) => socket.once('close', () => front.forget(socket)));
  return {
    close: (limits) =>
      closeGracefully(server, front, limits, () => {
        for (const socket of [...front.idleAfterAnswer()]) socket.end();
      }),
  };
}

async function closeGracefully(server: Server, front: RequestFront, limits: CloseLimits, closeIdle: () => void): Promise<CloseReport> {
  const started = performance.now();
  front.startDraining();
  if (limits.drainMs > 0) {
    limits.onBegun?.();
    await new Promise((resolve) => setTimeout(resolve, limits.drainMs));
  }
  await acceptQueued(server);
  const inFlight = front.inFlight();
  // net.Server's close stops accepting and waits for the open connections (http.Server's would also
  // reset those that have not sent a request yet).
  let allClosed = false;
  const closed = new Promise<void>((resolve) =>
    NetServer.prototype.close.call(server, () => {
      allClosed = true;
      resolve();
    }),
  );
  if (limits.drainMs > 0) closeIdle();
  else limits.onBegun?.();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limits.timeoutMs)));
  await Promise.race([closed, limit]);
  clearTimeout(timer);
  const cutConnections = allClosed ? 0 : await countConnections(server);
  if (!allClosed) server.closeAllConnections();
  await closed;
  return { outcome: cutConnections > 0 ? 'forced' : 'clean', inFlight, cutConnections, ms: Math.round(performance.now() - started) };
}

/** The most the accept queue is emptied for: a flood of new connections does not hold the stop. */
const ACCEPT_QUEUED_MAX_MS = 1_000;

/**
 * Resolves after a whole turn of the event loop (a poll phase between two check phases) accepted no
 * connection: libuv's poll accepts every connection queued on the listening socket, and closing the
 * socket resets those still queued.
 */
async function acceptQueued(server: Server): Promise<void> {
  let accepted = 0;
  const count = () => void accepted++;
  server.on('connection', count);
  const deadline = performance.now() + ACCEPT_QUEUED_MAX_MS;
  try {
    for (let seen = -1; seen !== accepted && performance.now() < deadline; ) {
      seen = accepted;
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    server.off('connection', count);
  }
}

/** Stops at once: open connections are cut (tests). */
export function closeAtOnce(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function countConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
