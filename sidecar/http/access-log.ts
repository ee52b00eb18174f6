/**
 * The access log (issue 19 item 7): one `request` line per finished request, at level info, with the
 * method, path (without its query, at most 500 characters), status, body bytes, duration and the client's
 * address as `TRUST_PROXY` allows (the same rule as Express's `req.ip`). `ACCESS_LOG=false` turns it off.
 */
import proxyAddr from 'proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../logger.ts';
import type { FinishedRequest } from './request-front.ts';

export type TrustProxy = boolean | number | string[];

/** The client's address: the peer's, or the nearest untrusted `X-Forwarded-For` entry (Express's rule). */
export function createClientAddress(trust: TrustProxy): (req: IncomingMessage) => string {
  const trusted =
    trust === true ? () => true : trust === false ? () => false : typeof trust === 'number' ? (_a: string, i: number) => i < trust : proxyAddr.compile(trust);
  return (req) => proxyAddr(req, trusted);
}

export function createAccessLog(log: Logger, trust: TrustProxy): (request: FinishedRequest) => void {
  const clientOf = createClientAddress(trust);
  return (r) => {
    log.info('request', {
      method: r.method.slice(0, 20),
      path: r.path.slice(0, 500),
      status: r.status,
      bytes: r.bytes,
      ms: Math.round(r.durationMs * 10) / 10,
      client: clientOf(r.req),
      ...(r.completed ? {} : { completed: false }),
    });
  };
}
