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
 * - each finished request is reported once (access log, metrics) with its status, body bytes and duration.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type FinishedRequest = {
  req: IncomingMessage;
  method: string;
  /** The path without its query. */
  path: string;
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
};

export function createRequestFront(inner: Listener, onFinished: (request: FinishedRequest) => void): RequestFront {
  let inFlight = 0;
  let draining = false;

  const listener: Listener = (req, res) => {
    const started = performance.now();
    inFlight += 1;
    toOriginForm(req);
    if (draining) res.setHeader('Connection', 'close');
    const bytes = countBodyBytes(res);
    res.once('close', () => {
      inFlight -= 1;
      onFinished({
        req,
        method: req.method ?? '',
        path: pathOf(req.url),
        status: res.statusCode,
        bytes: req.method === 'HEAD' ? 0 : bytes(),
        durationMs: performance.now() - started,
        completed: res.writableFinished,
      });
    });
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
  };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** RFC 9112 §3.2.2: an absolute-form target becomes origin-form; its authority replaces Host. */
function toOriginForm(req: IncomingMessage): void {
  const target = req.url ?? '/';
  if (!/^https?:\/\//i.test(target)) return;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return;
  }
  req.url = `${url.pathname}${url.search}`;
  req.headers.host = url.host;
}

function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Wraps `write` and `end` to count the body bytes the handlers send. */
function countBodyBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const add = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (typeof args[0] !== 'function') add(args[0], args[1]);
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
  return () => bytes;
}
