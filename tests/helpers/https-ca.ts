/**
 * A certificate authority made at test time with the `openssl` CLI, and HTTPS servers on loopback whose
 * certificates it signs. Tests trust the CA either in process (pass `ca.certPem` as a `ca` option) or in a
 * child process (`NODE_EXTRA_CA_CERTS=ca.certFile`, read by Node at start).
 *
 *   const ca = createTestCa();
 *   const server = await startHttpsCallbackServer({ ca, handler: (req, res) => res.end('ok') });
 *   await fetch(server.url('/callback')) // with the CA trusted
 *   await server.close(); ca.remove();
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

function runOpenssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A fresh CA (P-256, valid two days) in its own temporary folder. */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'test-ca-'));
  runOpenssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key',
      '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Reviews Service Test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    dir,
  );
  const certFile = join(dir, 'ca.pem');
  let serial = 0;
  return {
    certPem: readFileSync(certFile, 'utf8'),
    certFile,
    issue(names = DEFAULT_NAMES) {
      serial += 1;
      const base = `leaf-${serial}`;
      const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
      writeFileSync(
        join(dir, `${base}.ext`),
        `subjectAltName=${san}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\nbasicConstraints=CA:FALSE\n`,
      );
      runOpenssl(
        ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${base}.key`,
          '-out', `${base}.csr`, '-subj', `/CN=${names[0] ?? 'localhost'}`],
        dir,
      );
      runOpenssl(
        ['x509', '-req', '-in', `${base}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(1000 + serial),
          '-out', `${base}.pem`, '-days', '2', '-extfile', `${base}.ext`],
        dir,
      );
      return { key: readFileSync(join(dir, `${base}.key`), 'utf8'), cert: readFileSync(join(dir, `${base}.pem`), 'utf8') };
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
          reject(new Error(`no matching request within ${timeoutMs} ms (${requests.length} received)`));
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
