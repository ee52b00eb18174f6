/**
 * A certificate authority made at test time with node:crypto (tools/lib/x509.ts: no `openssl`
 * command), and HTTPS servers on loopback whose
 * certificates it signs. Tests trust the CA either in process (pass `ca.certPem` as a `ca` option) or in a
 * child process (`NODE_EXTRA_CA_CERTS=ca.certFile`, read by Node at start).
 *
 *   const ca = createTestCa();
 *   const server = await startHttpsCallbackServer({ ca, handler: (req, res) => res.end('ok') });
 *   await fetch(server.url('/callback')) // with the CA trusted
 *   await server.close(); ca.remove();
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificate, generateP256KeyPair } from './x509.ts';

export type TestCa = {
  /** The CA certificate, PEM. */
  certPem: string;
  /** A file holding `certPem`, for `NODE_EXTRA_CA_CERTS`. */
  certFile: string;
  /** A key and a certificate for the given DNS names and IP addresses, signed by this CA. */
  issue(names?: readonly string[]): { key: string; cert: string };
  /** Deletes the CA's files. */
  remove(): void;
};

const DEFAULT_NAMES = ['localhost', '127.0.0.1', '::1'];
const CA_NAME = 'Reviews Service Test CA';

/** A fresh CA (P-256, valid two days) in its own temporary folder. */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'test-ca-'));
  const caKeys = generateP256KeyPair();
  const certPem = createCertificate({ subject: CA_NAME, issuer: CA_NAME, serial: 1, publicKey: caKeys.publicKey, signingKey: caKeys.privateKey, days: 2, kind: { ca: true } });
  const certFile = join(dir, 'ca.pem');
  writeFileSync(certFile, certPem);
  let serial = 0;
  return {
    certPem,
    certFile,
    issue(names = DEFAULT_NAMES) {
      serial += 1;
      const keys = generateP256KeyPair();
      const cert = createCertificate({
        subject: names[0] ?? 'localhost',
        issuer: CA_NAME,
        serial: 1000 + serial,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        days: 2,
        kind: { ca: false, names },
      });
      return { key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One request as the server saw it, body read in full. */
export type RecordedRequest = {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  receivedAt: number;
};

export type CallbackHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export type HttpsCallbackServer = {
  port: number;
  /** `https://<host>:<port>`; host defaults to 127.0.0.1. */
  origin: string;
  url(path: string, host?: string): string;
  /** Every request received, in order of arrival. */
  requests: RecordedRequest[];
  setHandler(handler: CallbackHandler): void;
  /** Resolves with the first recorded request matching `predicate`, waiting up to `timeoutMs`. */
  waitForRequest(predicate: (req: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
  server: Server;
};

/** An HTTPS server on loopback, port 0, certificate from `ca`; the default handler answers 200 with no body. */
export async function startHttpsCallbackServer(options: {
  ca: TestCa;
  host?: string;
  names?: readonly string[];
  handler?: CallbackHandler;
}): Promise<HttpsCallbackServer> {
  const host = options.host ?? '127.0.0.1';
  let handler: CallbackHandler = options.handler ?? ((_req, res) => void res.end());
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server = createServer(options.ca.issue(options.names), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = new URL(req.url ?? '/', 'https://callback.invalid');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      for (const wake of waiters) wake();
      Promise.resolve(handler(recorded, res)).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const hostPart = (h: string) => (h.includes(':') ? `[${h}]` : h);
  return {
    port,
    origin: `https://${hostPart(host)}:${port}`,
    url: (path, h = host) => `https://${hostPart(h)}:${port}${path}`,
    requests,
    setHandler(next) {
      handler = next;
    },
    waitForRequest(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.find(predicate);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          const seen = requests.slice(-10).map((r) => `${r.method} ${r.path}`);
          reject(new Error(`no matching request within ${timeoutMs} ms (${requests.length} received${seen.length ? `, the last: ${seen.join(', ')}` : ''})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        const wake = () => void check();
        if (!check()) waiters.add(wake);
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
    server,
  };
}
