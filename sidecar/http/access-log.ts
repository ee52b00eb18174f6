/**
 * The access log (issue 19 item 7, issue 29): one `request` line per finished request, at level info,
 * with the method, the path as the client sent it (under a `PUBLIC_URL` path, with its prefix; at most
 * 500 characters), the query (at most 500), status, body bytes, duration, the client's address as
 * `TRUST_PROXY` allows (the same rule as Express's `req.ip`), and the `User-Agent` and `Referer` headers
 * (at most 300 each) when sent. `ACCESS_LOG=false` turns it off.
 */
import proxyAddr from 'proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../logger.ts';
import type { FinishedRequest } from './request-front.ts';
import { splitTarget } from './read-route.ts';

export type TrustProxy = boolean | number | string[];

/** The client's address: the peer's, or the nearest untrusted `X-Forwarded-For` entry (Express's rule). */
export function createClientAddress(trust: TrustProxy): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? '';
  const trusted =
    trust === true ? () => true : typeof trust === 'number' ? (_a: string, i: number) => i < trust : proxyAddr.compile(trust);
  return (req) => proxyAddr(req, trusted);
}

export function createAccessLog(log: Logger, trust: TrustProxy): (request: FinishedRequest) => void {
  const clientOf = createClientAddress(trust);
  return (r) => {
    const { headers } = r.req;
    const { path, query, search } = splitTarget(r.target);
    const fields: Record<string, unknown> = { method: r.method.slice(0, 20), path: path.slice(0, 500) };
    if (search !== '') fields.query = query.slice(0, 500);
    fields.status = r.status;
    fields.bytes = r.bytes;
    fields.ms = Math.round(r.durationMs * 10) / 10;
    fields.client = clientOf(r.req);
    if (headers['user-agent'] !== undefined) fields.agent = headers['user-agent'].slice(0, 300);
    if (headers.referer !== undefined) fields.referer = headers.referer.slice(0, 300);
    if (!r.completed) fields.completed = false;
    log.info('request', fields);
  };
}
