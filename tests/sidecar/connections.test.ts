/**
 * The HTTP server under slow or abusive clients (issue 10 items 3 and 8): partial headers are cut off
 * within a second of `headersTimeout`, one address cannot hold more than its share of connections, and
 * the errors of Node's HTTP parser answer with the service's JSON error body.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.ts';
import { SERVER_TIMEOUTS } from '../../sidecar/http/http-server.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let port: number;

beforeAll(async () => {
  const { distDir } = await buildTestSite({ publicUrl: PUBLIC });
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC, env: { MAX_CONNECTIONS_PER_ADDRESS: '5', MAX_CONNECTIONS: '500' } });
  port = Number(new URL(sidecar.url).port);
});
afterAll(() => sidecar?.close());

/** Sends raw bytes and resolves with everything the server wrote before closing the connection. */
function exchange(bytes: string | Buffer, options: { keepOpen?: boolean } = {}): { socket: Socket; answer: Promise<{ text: string; ms: number }> } {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const answer = new Promise<{ text: string; ms: number }>((resolve) => {
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - started }));
    socket.on('error', () => {});
  });
  socket.write(bytes);
  if (!options.keepOpen) socket.end();
  return { socket, answer };
}

function parse(text: string) {
  const [head, body] = text.split('\r\n\r\n') as [string, string];
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) as { error: string; message: string } };
}

describe('connection limits', () => {
  it('answers a connection past the per-address cap with 503 JSON, and serves again once one closes', async () => {
    const held = Array.from({ length: 5 }, () => exchange('', { keepOpen: true }));
    await new Promise((r) => setTimeout(r, 200));
    const extra = exchange('GET /reviews.json HTTP/1.1\r\nHost: x\r\n\r\n', { keepOpen: true });
    const { status, body, head } = parse((await extra.answer).text);
    expect(status).toBe(503);
    expect(head).toMatch(/retry-after: 5/i);
    expect(body.error).toBe('too_many_connections');
    held[0]!.socket.destroy();
    await held[0]!.answer;
    const ok = await fetch(`${sidecar.url}/reviews.json`, { headers: { connection: 'close' } });
    expect(ok.status).toBe(200);
    for (const h of held) h.socket.destroy();
  });

  it('when the budget is full, closes the oldest connections without a whole request, so a new client gets in', async () => {
    const small = await startTestSidecar({ distDir: sidecar.config.distDir, publicUrl: PUBLIC, env: { MAX_CONNECTIONS: '20', MAX_CONNECTIONS_PER_ADDRESS: '0' } });
    try {
      const smallPort = Number(new URL(small.url).port);
      const slow: { socket: Socket; closed: Promise<void> }[] = [];
      for (let i = 0; i < 25; i++) {
        const socket = connect({ port: smallPort, host: '127.0.0.1', localAddress: `127.0.3.${i + 1}` });
        socket.on('error', () => {});
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        slow.push({ socket, closed });
      }
      // The five oldest made room for the five newest; the rest still hold their slots.
      await Promise.all(slow.slice(0, 5).map((s) => s.closed));
      expect(slow.slice(5).every((s) => !s.socket.destroyed)).toBe(true);
      // A legitimate request gets in, closing the oldest slow connection left.
      const ok = await fetch(`${small.url}/reviews.json`, { headers: { connection: 'close' } });
      expect(ok.status).toBe(200);
      await slow[5]!.closed;
      expect(slow.slice(6).every((s) => !s.socket.destroyed)).toBe(true);
      for (const s of slow) s.socket.destroy();
    } finally {
      await small.close();
    }
  });

  it('when the budget is full, closes the connections of the address holding the most, even when another is older', async () => {
    const small = await startTestSidecar({ distDir: sidecar.config.distDir, publicUrl: PUBLIC, env: { MAX_CONNECTIONS: '20', MAX_CONNECTIONS_PER_ADDRESS: '0' } });
    try {
      const smallPort = Number(new URL(small.url).port);
      const openSlow = async (localAddress: string) => {
        const socket = connect({ port: smallPort, host: '127.0.0.1', localAddress });
        socket.on('error', () => {});
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        return { socket, closed };
      };
      // The oldest connection, alone on its address, then an attacker's 24 from one address.
      const lone = await openSlow('127.0.5.1');
      const attacker = [];
      for (let i = 0; i < 24; i++) attacker.push(await openSlow('127.0.5.2'));
      await Promise.all(attacker.slice(0, 5).map((s) => s.closed));
      expect(lone.socket.destroyed).toBe(false);
      expect(attacker.slice(5).every((s) => !s.socket.destroyed)).toBe(true);
      // A new client gets in; the attacker's oldest left makes room, the lone connection stays.
      const ok = await fetch(`${small.url}/reviews.json`, { headers: { connection: 'close' } });
      expect(ok.status).toBe(200);
      await attacker[5]!.closed;
      expect(lone.socket.destroyed).toBe(false);
      for (const s of [lone, ...attacker]) s.socket.destroy();
    } finally {
      await small.close();
    }
  });

  it('cuts a connection that never finishes its headers within a second of headersTimeout, with 408 JSON', async () => {
    const { answer } = exchange('GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Slow: ', { keepOpen: true });
    const { text, ms } = await answer;
    expect(ms).toBeLessThan(SERVER_TIMEOUTS.headersTimeoutMs + 2 * SERVER_TIMEOUTS.connectionsCheckingIntervalMs + 500);
    const { status, body } = parse(text);
    expect(status).toBe(408);
    expect(body.error).toBe('request_timeout');
  }, 20_000);
});

describe('errors of the HTTP parser are JSON', () => {
  it.each([
    ['oversized headers', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['raw non-ASCII in the request line', Buffer.concat([Buffer.from('GET /caf'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]), 400, 'bad_request'],
    ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n', 400, 'bad_request'],
  ])('answers %s with its status and a JSON body', async (_label, bytes, status, code) => {
    const { answer } = exchange(bytes);
    const parsed = parse((await answer).text);
    expect(parsed.status).toBe(status);
    expect(parsed.head).toMatch(/content-type: application\/json/i);
    expect(parsed.body.error).toBe(code);
  });

  it('answers an unsupported Expect with 417 and a JSON body', async () => {
    const { answer } = exchange('POST /api/websub/hub HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 0\r\n\r\n');
    const parsed = parse((await answer).text);
    expect(parsed.status).toBe(417);
    expect(parsed.body.error).toBe('expectation_failed');
  });
});

describe('request targets and bodies', () => {
  it('answers an absolute-form target (RFC 9112 §3.2.2) like its origin-form', async () => {
    const origin = await fetch(`${sidecar.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    const expected = await origin.text();
    const { answer } = exchange(`GET http://reviews.example.com/reviews.json HTTP/1.1\r\nHost: elsewhere\r\nConnection: close\r\n\r\n`);
    const text = (await answer).text;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(Buffer.from(expected).toString('latin1'));
    const search = parse((await exchange('GET HTTPS://x.example/api/reviews/search?limit=nope HTTP/1.1\r\nHost: x\r\n\r\n').answer).text);
    expect(search.status).toBe(400);
    expect(search.body.error).toBe('invalid_parameters');
  });

  it('delivers the whole answer to a GET with a large body and Connection: close, every time', async () => {
    const size = 8 << 20;
    const head = `GET /reviews.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`;
    const expectedLength = Number((await fetch(`${sidecar.url}/reviews.json`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } })).headers.get('content-length'));
    const chunk = Buffer.alloc(64 << 10, 'a');
    for (let i = 0; i < 10; i++) {
      // As curl does: send the whole body first, then read the answer. A server that closes with unread
      // bytes resets the connection, and the reset discards the answer waiting in the client's buffer.
      const socket = connect(port, '127.0.0.1');
      socket.pause();
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('error', () => {});
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(head);
      for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
        if (!socket.write(chunk)) await new Promise((resolve) => (socket.once('drain', resolve), socket.once('close', resolve)));
      }
      socket.resume();
      await closed;
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(Buffer.byteLength(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1')).toBe(expectedLength);
    }
  }, 60_000);
});

describe('error answers stay small', () => {
  it('lists at most 20 problems of an 11 KB query of unknown parameters, and cuts long names short', async () => {
    const names = Array.from({ length: 600 }, (_, i) => `unknown_${i}=1`);
    const query = names.join('&');
    expect(query.length).toBeGreaterThan(8_000);
    const res = await fetch(`${sidecar.url}/api/reviews/search?${query}`);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text.length).toBeLessThan(10_000);
    const body = JSON.parse(text) as { error: string; message: string; issues: { path: string[] }[] };
    expect(body.issues).toHaveLength(20);
    expect(body.message).toContain('(600 problems; the first 20 are listed)');

    const long = await (await fetch(`${sidecar.url}/api/reviews/search?${'n'.repeat(5_000)}=1`)).json();
    expect(long.issues[0].path).toEqual([`${'n'.repeat(64)}…`]);
  });
});

describe('limits in the configuration', () => {
  it('names each variable with a bad value', () => {
    const bad = parseConfig({ MCP_RATE_LIMIT: 'lots', MAX_CONNECTIONS: '0', WEBSUB_RATE_LIMIT: '5,0' });
    expect(bad.ok).toBe(false);
    const problems = bad.ok ? [] : bad.problems;
    expect(problems.some((p) => p.startsWith('MCP_RATE_LIMIT: must be burst,per-second'))).toBe(true);
    expect(problems.some((p) => p.startsWith('MAX_CONNECTIONS: must be at least 1'))).toBe(true);
    expect(problems.some((p) => p.startsWith('WEBSUB_RATE_LIMIT: must allow'))).toBe(true);
  });
});
