/**
 * What every request passes before the static files and the Express app:
 *
 * - an absolute-form target (`GET http://host/reviews.json`, RFC 9112 §3.2.2) is answered like its
 *   origin-form (`/reviews.json`), with the target's authority as the Host (the RFC's "MUST ignore the
 *   received Host");
 * - a GET or HEAD that carries a body is answered once the body has been read and dropped: a server that
 *   closes a connection with unread bytes makes the kernel reset it, and the reset can destroy the answer
 *   before the client reads it (`Connection: close` with a large body);
 * - it counts the requests in flight, and while the service shuts down every answer carries
 *   `Connection: close`, so keep-alive clients move to another instance after their current request;
 * - it keeps the connections that sit idle after an answer, which a stop closes after its drain
 *   (graceful-close.ts);
 * - each finished request is reported once (access log, metrics) with its target as sent, status, body
 *   bytes and duration.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export type FinishedRequest = {
  req: IncomingMessage;
  method: string;
  /** The request target as the client sent it (origin-form): path and query, before any base path is taken off. */
  target: string;
  status: number;
  /** Bytes of the body sent (0 for HEAD). */
  bytes: number;
  durationMs: number;
  /** False when the connection closed before the whole answer was sent. */
  completed: boolean;
};

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export type RequestFront = {
  listener: Listener;
  inFlight(): number;
  /** From now on every answer closes its connection. */
  startDraining(): void;
  /** Open connections whose last request was answered and that sent none since (closed ones leave by `forget`). */
  idleAfterAnswer(): ReadonlySet<Socket>;
  /** A connection closed. */
  forget(socket: Socket): void;
};

// What the front keeps of a request, on its response: plain properties and shared functions, so a
// request costs no closure (the serving benchmark, issue 32).
const STARTED = Symbol('started');
const TARGET = Symbol('target');
const BYTES = Symbol('bytes');
type Tracked = ServerResponse & { [STARTED]: number; [TARGET]: string; [BYTES]: number };

export function createRequestFront(inner: Listener, onFinished: (request: FinishedRequest) => void): RequestFront {
  let inFlight = 0;
  let draining = false;
  const idle = new Set<Socket>();

  function finished(this: Tracked): void {
    inFlight -= 1;
    const req = this.req;
    if (this.writableFinished && !req.socket.destroyed) idle.add(req.socket);
    onFinished({
      req,
      method: req.method ?? '',
      target: this[TARGET],
      status: this.statusCode,
      bytes: req.method === 'HEAD' ? 0 : this[BYTES],
      durationMs: performance.now() - this[STARTED],
      completed: this.writableFinished,
    });
  }

  const listener: Listener = (req, res) => {
    const tracked = res as Tracked;
    tracked[STARTED] = performance.now();
    inFlight += 1;
    idle.delete(req.socket);
    toOriginForm(req);
    tracked[TARGET] = req.url ?? '/';
    tracked[BYTES] = 0;
    res.write = countedWrite;
    res.end = countedEnd;
    if (draining) res.setHeader('Connection', 'close');
    res.on('close', finished);
    if ((req.method === 'GET' || req.method === 'HEAD') && hasBody(req)) {
      req.once('end', () => inner(req, res));
      req.resume();
    } else {
      inner(req, res);
    }
  };

  return {
    listener,
    inFlight: () => inFlight,
    startDraining() {
      draining = true;
    },
    idleAfterAnswer: () => idle,
    forget: (socket) => void idle.delete(socket),
  };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** RFC 9112 §3.2.2: an absolute-form target becomes origin-form; its authority replaces Host. */
function toOriginForm(req: IncomingMessage): void {
  const target = req.url ?? '/';
  if (target.startsWith('/') || !/^https?:\/\//i.test(target)) return;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return;
  }
  req.url = `${url.pathname}${url.search}`;
  req.headers.host = url.host;
}

function sizeOf(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

// `write` and `end` count the body bytes the handlers send, then do what ServerResponse does.
const { write, end } = ServerResponse.prototype;

const countedWrite = function (this: Tracked, chunk: unknown, ...rest: unknown[]) {
  this[BYTES] += sizeOf(chunk, rest[0]);
  return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
} as ServerResponse['write'];

const countedEnd = function (this: Tracked, ...args: unknown[]) {
  if (typeof args[0] !== 'function') this[BYTES] += sizeOf(args[0], args[1]);
  return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
} as ServerResponse['end'];
