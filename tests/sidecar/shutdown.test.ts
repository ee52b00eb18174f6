/**
 * Graceful shutdown of the real process (issue 19 item 5): on SIGTERM `/readyz` answers 503 at once, no
 * new connection is accepted, the requests in flight finish with whole answers, keep-alive clients are
 * told `Connection: close`, one `shutdown` log line says how it ended, and the exit code is 0. No request
 * is lost: every one gets an answer, or its connection is refused before anything was sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

const PUBLIC = 'https://reviews.example.com';
let distDir: string;

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
});

type LogLine = { event: string; [field: string]: unknown };

/** The sidecar as `npm start` runs it, with its log lines as they come. */
async function startProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: PUBLIC,
      DIST_DIR: distDir,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), 'shutdown-data-')),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: { event: string; resolve: (line: LogLine) => void }[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, end)) as LogLine;
      buffer = buffer.slice(end + 1);
      lines.push(line);
      for (const w of waiters.filter((w) => w.event === line.event)) w.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const event = (name: string) => {
    const seen = lines.find((l) => l.event === name);
    return seen ? Promise.resolve(seen) : new Promise<LogLine>((resolve) => waiters.push({ event: name, resolve }));
  };
  const listening = await event('listening');
  return { child, lines, exited, event, url: String(listening.url) };
}

/** Writes `first`, then (after `next()`) `rest`; resolves with everything read until the server closed. */
function partial(port: number, first: string) {
  const socket: Socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (c) => (text += c));
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  const ready = new Promise((resolve) => socket.once('connect', resolve)).then(() => socket.write(first));
  return { ready, answer, send: (rest: string) => socket.write(rest) };
}

/** `reused`: the request went on a kept-alive connection, which the service had accepted before. */
type Outcome = { status: number; connectionClose: boolean } | { error: string; reused: boolean };

function get(url: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connectionClose: res.headers.connection === 'close' }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket }));
    req.end();
  });
}

describe('graceful shutdown', () => {
  // The signal handlers were once set only after the hub's start-up comparison of every topic, which
  // follows `listening`: a signal in between ended the process by the signal itself (exit null).
  it('stops cleanly on a signal that comes the moment the port is open', async () => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false' });
    sidecar.child.kill('SIGTERM');
    expect(await sidecar.exited).toBe(0);
    expect(sidecar.lines.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', outcome: 'clean' });
  }, 30_000);

  it('on SIGTERM: /readyz 503 at once, no new connection, requests in flight answered, none lost, exit 0', async () => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false', SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const port = Number(new URL(sidecar.url).port);

    // In flight when the signal comes: a readiness probe and a hub request, each half-sent.
    const probe = partial(port, 'GET /readyz HTTP/1.1\r\nHost: x\r\n');
    const form = 'hub.mode=subscribe&hub.topic=nothing&hub.callback=nowhere';
    const post = partial(port, `POST /api/websub/hub HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form.slice(0, 10)}`);
    await Promise.all([probe.ready, post.ready]);

    // Four keep-alive clients keep asking until the service refuses their connection.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const outcomes: Outcome[] = [];
    let signalled!: () => void;
    const atLoad = new Promise<void>((resolve) => (signalled = resolve));
    const workers = Array.from({ length: 4 }, async () => {
      for (;;) {
        const outcome = await get(`${sidecar.url}/reviews.json`, agent);
        outcomes.push(outcome);
        if (outcomes.length === 40) signalled();
        if ('error' in outcome) return;
      }
    });
    await atLoad;
    sidecar.child.kill('SIGTERM');
    await sidecar.event('shutdown_started');

    const refused = await get(`${sidecar.url}/healthz`, new Agent({ keepAlive: false }));
    expect(refused).toEqual({ error: 'ECONNREFUSED', reused: false });

    probe.send('\r\n');
    const probeAnswer = await probe.answer;
    expect(probeAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(probeAnswer).toMatch(/connection: close/i);
    expect(probeAnswer).toContain('shutting down');

    post.send(form.slice(10));
    const postAnswer = await post.answer;
    expect(postAnswer).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(JSON.parse(postAnswer.slice(postAnswer.indexOf('\r\n\r\n') + 4)).error).toBe('invalid_request');

    await Promise.all(workers);
    expect(await sidecar.exited).toBe(0);

    const answered = outcomes.filter((o): o is { status: number; connectionClose: boolean } => 'status' in o);
    const failed = outcomes.filter((o) => 'error' in o);
    // Each worker ends with exactly one failed new connection, opened after the stop began: refused, or
    // reset by the kernel when it came in the instant the listener closed. No request on a connection the
    // service had accepted (a kept-alive one) failed.
    expect(failed).toHaveLength(4);
    for (const outcome of failed) expect(outcome).toEqual({ error: expect.stringMatching(/^ECONN(REFUSED|RESET)$/), reused: false });
    expect(answered.every((o) => o.status === 200)).toBe(true);
    expect(answered.filter((o) => o.connectionClose).length).toBeGreaterThanOrEqual(1);

    const ended = sidecar.lines.filter((l) => l.event === 'shutdown');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ signal: 'SIGTERM', outcome: 'clean', cut_connections: 0 });
    expect(ended[0]!.in_flight).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('cuts what is still in flight at SHUTDOWN_TIMEOUT_SECONDS and says so, still exiting 0', async () => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false', SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const port = Number(new URL(sidecar.url).port);
    const stuck = partial(port, 'POST /api/websub/hub HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nhub.mode=');
    await stuck.ready;
    // Its headers were written before this request's connection opened, so they have been read.
    expect((await fetch(`${sidecar.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    sidecar.child.kill('SIGINT');
    expect(await sidecar.exited).toBe(0);
    await stuck.answer;
    expect(sidecar.lines.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGINT', outcome: 'forced', in_flight: 1, cut_connections: 1 });
  }, 30_000);

  // Issue 29 item 2, step 2: after the drain, a keep-alive connection that sits idle after an answer is
  // closed at once (its client has moved on) rather than at its keep-alive timeout, 5 s after its answer;
  // one that has not sent its first request is left to send it.
  it('after the drain, closes the connections idle after an answer, and answers one yet to send its first request', async () => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false', SHUTDOWN_DRAIN_SECONDS: '1', SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const port = Number(new URL(sidecar.url).port);
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
      await new Promise((resolve) => socket.once('connect', resolve));
      return { socket, closed, text: () => text };
    };
    const answered = await open();
    answered.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => answered.socket.on('data', () => answered.text().includes('\r\n\r\n') && resolve()));
    const silent = await open();

    const signalledAt = performance.now();
    sidecar.child.kill('SIGTERM');
    const closedAfter = (await answered.closed) - signalledAt;
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(closedAfter).toBeLessThan(4_500);

    silent.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await silent.closed;
    expect(silent.text()).toMatch(/^HTTP\/1\.1 200 /);
    expect(silent.text()).toMatch(/connection: close/i);
    expect(await sidecar.exited).toBe(0);
    expect(sidecar.lines.find((l) => l.event === 'shutdown')).toMatchObject({ outcome: 'clean', cut_connections: 0 });
  }, 30_000);

  // Issue 41 item 4: with the default settings (no drain), 29 of 40 requests sent 5 ms before SIGTERM were
  // reset: they waited in the kernel's accept queue when the listener closed. The stop now takes them first.
  it('with the default settings: 40 requests sent 5 ms before SIGTERM all get an answer', async () => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false' });
    try {
      const fresh = new Agent({ keepAlive: false });
      const sent = Array.from({ length: 40 }, () => get(`${sidecar.url}/reviews.json`, fresh));
      await new Promise((resolve) => setTimeout(resolve, 5));
      sidecar.child.kill('SIGTERM');
      const outcomes = await Promise.all(sent);
      expect(outcomes.filter((o) => !('status' in o) || o.status !== 200)).toEqual([]);
      expect(await sidecar.exited).toBe(0);
      expect(sidecar.lines.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', outcome: 'clean', cut_connections: 0 });
    } finally {
      sidecar.child.kill('SIGKILL');
    }
  }, 60_000);

  // Issue 29 item 2: 40 requests sent 5 ms before SIGTERM lost 2 (ECONNRESET: accepted by the kernel,
  // never answered). With a drain, every request sent in the 50 ms around the signal is answered, half of
  // them on fresh connections and half on keep-alive ones, straight to the service or through a proxy.
  // The drain (5 s, as in compose.yaml) leaves room for a loaded machine: all 200 must reach the listener
  // before it closes (a 2 s drain was too short through the proxy at a load average of 24).
  it.each([
    ['straight to the service', false],
    ['through a TCP proxy', true],
  ])('with SHUTDOWN_DRAIN_SECONDS: 200 requests sent in the 50 ms around SIGTERM all get an answer (%s)', async (_name, proxied) => {
    const sidecar = await startProcess({ ACCESS_LOG: 'false', SHUTDOWN_DRAIN_SECONDS: '5' });
    const proxy = proxied ? await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(sidecar.url).port) }) : undefined;
    const base = proxy ? `http://127.0.0.1:${proxy.port}` : sidecar.url;
    try {
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });
      const fresh = new Agent({ keepAlive: false });
      // Keep-alive connections open before the signal, so some requests ride on them.
      await Promise.all(Array.from({ length: 16 }, () => get(`${base}/reviews.json`, keepAlive)));
      const sent: Promise<Outcome>[] = [];
      let readyAfterSignal: Promise<number | string> | undefined;
      // Ten batches of 20, one every 5 ms; the signal goes with the sixth.
      for (let batch = 0; batch < 10; batch += 1) {
        if (batch === 5) {
          sidecar.child.kill('SIGTERM');
          readyAfterSignal = sidecar
            .event('shutdown_started')
            .then(async () => (await fetch(`${base}/readyz`, { headers: { connection: 'close' } })).status)
            .catch((error: Error) => `no answer from /readyz: ${error.message}`);
        }
        for (let i = 0; i < 20; i += 1) sent.push(get(`${base}/reviews.json`, i % 2 === 0 ? keepAlive : fresh));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const outcomes = await Promise.all(sent);
      expect(outcomes.filter((o) => !('status' in o) || o.status !== 200)).toEqual([]);
      expect(outcomes).toHaveLength(200);
      // Readiness failed first: 503 while the listener still answered.
      expect(await readyAfterSignal).toBe(503);
      expect(await sidecar.exited).toBe(0);
      const ended = sidecar.lines.find((l) => l.event === 'shutdown');
      expect(ended).toMatchObject({ signal: 'SIGTERM', outcome: 'clean', cut_connections: 0 });
      expect(Number(ended!.ms)).toBeGreaterThanOrEqual(5000);
    } finally {
      sidecar.child.kill('SIGKILL');
      await proxy?.close();
    }
  }, 60_000);
});
