/**
 * A WebSub subscriber written against the W3C Recommendation, on a real HTTPS server (test CA): answers
 * verification GETs by echoing hub.challenge and acknowledges notifications with 204. Each callback path
 * can be told to misbehave (wrong body, error status, slowness) to drive the hub's state table.
 */
import type { ServerResponse } from 'node:http';
import { startHttpsCallbackServer, type HttpsCallbackServer, type RecordedRequest, type TestCa } from '../../tools/lib/https-ca.ts';

export type CallbackBehaviour = {
  /** How to answer verification GETs: echo the challenge (default), echo something else, or a status. */
  verify?: 'echo' | 'wrong-body' | number;
  /** Status for notification POSTs (default 204), or a function deciding per request. */
  notifyStatus?: number | ((req: RecordedRequest) => number);
  /** Wait before answering a notification. */
  notifyDelayMs?: number;
  /**
   * Answer a verification, or a notification, only once this settles: a slow host whose answer comes
   * when the test says so (after a kill, a cut, a check) instead of after a guessed delay.
   */
  holdVerification?: Promise<unknown>;
  holdNotification?: Promise<unknown>;
};

export type Subscriber = {
  server: HttpsCallbackServer;
  /** A callback URL on this server; `query` is appended as the callback's own query string. */
  callback(path: string, query?: string): string;
  behave(path: string, behaviour: CallbackBehaviour): void;
  verifications(path?: string): RecordedRequest[];
  notifications(path?: string): RecordedRequest[];
  denials(path?: string): RecordedRequest[];
  waitForNotification(path: string, predicate?: (req: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  waitForVerification(path: string, mode?: string, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
};

export async function startSubscriber(ca: TestCa, host = '127.0.0.1'): Promise<Subscriber> {
  const behaviours = new Map<string, CallbackBehaviour>();
  const server = await startHttpsCallbackServer({
    ca,
    host,
    handler: async (req, res) => answer(req, res, behaviours.get(req.path) ?? {}),
  });
  const byPath = (method: string, mode: ((m: string | null) => boolean) | undefined, path?: string) =>
    server.requests.filter((r) => r.method === method && (path === undefined || r.path === path) && (!mode || mode(r.query.get('hub.mode'))));
  return {
    server,
    callback: (path, query) => `${server.origin}${path}${query ? `?${query}` : ''}`,
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    verifications: (path) => byPath('GET', (m) => m === 'subscribe' || m === 'unsubscribe', path),
    notifications: (path) => byPath('POST', undefined, path),
    denials: (path) => byPath('GET', (m) => m === 'denied', path),
    waitForNotification: (path, predicate = () => true, timeoutMs) =>
      server.waitForRequest((r) => r.method === 'POST' && r.path === path && predicate(r), timeoutMs),
    waitForVerification: (path, mode = 'subscribe', timeoutMs) =>
      server.waitForRequest((r) => r.method === 'GET' && r.path === path && r.query.get('hub.mode') === mode, timeoutMs),
    close: () => server.close(),
  };
}

async function answer(req: RecordedRequest, res: ServerResponse, b: CallbackBehaviour): Promise<void> {
  if (req.method === 'GET') {
    const challenge = req.query.get('hub.challenge');
    if (req.query.get('hub.mode') === 'denied' || challenge === null) return void res.writeHead(200).end();
    await b.holdVerification;
    if (typeof b.verify === 'number') return void res.writeHead(b.verify).end(challenge);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(b.verify === 'wrong-body' ? `${challenge}x` : challenge);
    return;
  }
  if (b.notifyDelayMs) await new Promise((r) => setTimeout(r, b.notifyDelayMs));
  await b.holdNotification;
  const status = typeof b.notifyStatus === 'function' ? b.notifyStatus(req) : (b.notifyStatus ?? 204);
  res.writeHead(status).end();
}
