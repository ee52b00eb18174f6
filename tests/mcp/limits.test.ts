/**
 * What one MCP request may cost (issue 10 item 7): objects with too many keys are refused before
 * validation, errors list at most 20 problems, /mcp is rate-limited per address, malformed resource URIs
 * get the JSON-RPC codes the specification assigns, and `initialize` advertises only what is true.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeRaw, loadFixtureLive, postMcp, startMcpApp, type RunningApp } from './mcp-fixture.ts';

let app: RunningApp;
let limited: RunningApp;
let sessionId: string;

beforeAll(async () => {
  const live = await loadFixtureLive();
  app = await startMcpApp({ live });
  limited = await startMcpApp({ live, rateLimit: { capacity: 5, refillPerSecond: 0.01 } });
  sessionId = await initializeRaw(app.mcpUrl);
});
afterAll(async () => {
  await app?.close();
  await limited?.close();
});

const withSession = () => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('search_reviews with many unknown keys', () => {
  it('refuses 60,000 keys before validation with -32602 and a short answer', async () => {
    const args = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1]));
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...withSession() },
      body: JSON.stringify(call(7, 'search_reviews', args)),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThan(1_000);
    expect(JSON.parse(text)).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringMatching(/more than 100 keys; at most 100 are accepted/) } });
  });

  it('refuses a wide object as soon as its bytes arrive, before the rest of the body is sent', async () => {
    // The first chunk already holds 101 keys; the body is never finished, so only a refusal made on the
    // bytes as they arrive can answer (a refusal after JSON.parse would wait for the end for ever).
    const wide = JSON.stringify(call(9, 'search_reviews', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 1])))).slice(0, -2);
    let hold!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        hold = controller;
        controller.enqueue(new TextEncoder().encode(wide));
      },
    });
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...withSession() },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32602, message: expect.stringMatching(/more than 100 keys/) } });
    hold.close();
  });

  it('judges the width on the bytes, before parsing: a wide object followed by garbage is refused for its width', async () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, 1])));
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...withSession() },
      body: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search_reviews","arguments":${wide}} not json at all`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/more than 100 keys/) } });
  });

  it('refuses nesting deeper than 64 levels', async () => {
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...withSession() },
      body: `{"jsonrpc":"2.0","id":4,"method":"ping","params":${'['.repeat(100)}${']'.repeat(100)}}`,
    });
    expect(await response.json()).toMatchObject({ id: 4, error: { code: -32602, message: expect.stringMatching(/nested more than 64 levels/) } });
  });

  it('refuses a body declared over 1 MiB before reading it', async () => {
    const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(app.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(2 * 1024 * 1024), ...withSession() },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      req.on('error', reject);
      // Headers only: the answer comes without any of the announced body.
      req.flushHeaders();
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/at most 1048576 bytes/) } });
  });

  it('names at most 20 unknown arguments and counts the rest', async () => {
    const args = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknown_${i}`, 1]));
    const response = await postMcp(app.mcpUrl, call(8, 'search_reviews', args), withSession());
    const result = (response.json as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(result.isError).toBe(true);
    const lines = result.content[0]!.text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe('- … and 40 more problems');
    expect(result.content[0]!.text.length).toBeLessThan(8_000);
  });
});

describe('per-address rate limit', () => {
  it('answers 429 with Retry-After and a JSON-RPC error once the burst is spent', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof postMcp>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await postMcp(limited.mcpUrl, { jsonrpc: '2.0', id: i, method: 'ping' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Too Many Requests/) } });
  });
});

describe('resources/read with a malformed URI', () => {
  it.each([
    ['reviews://reviews/%ff', -32002],
    ['', -32602],
    ['not a uri', -32602],
  ])('answers %j with %i, not -32603', async (uri, code) => {
    const response = await postMcp(app.mcpUrl, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } }, withSession());
    const error = (response.json as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(code);
    expect(error.message).not.toMatch(/URI malformed|Invalid URL/);
  });
});

describe('over-long names in a request', () => {
  it('answers resources/read of an over-long URI with -32602 and a short message', async () => {
    const uri = `reviews://reviews/${'a'.repeat(200_000)}`;
    const response = await postMcp(app.mcpUrl, { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri } }, withSession());
    const error = (response.json as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/uri is \d+ characters long; at most \d+/);
    expect(JSON.stringify(response.json).length).toBeLessThan(1_000);
  });

  it('echoes an unknown tool name cut short, not whole', async () => {
    const response = await postMcp(app.mcpUrl, call(9, `no_such_tool_${'x'.repeat(1_000_000)}`, {}), withSession());
    expect(JSON.stringify(response.json).length).toBeLessThan(1_000);
    expect(JSON.stringify(response.json)).toContain('no_such_tool_xxx');
    expect(JSON.stringify(response.json)).toContain('…');
  });
});

describe('initialize', () => {
  it('does not advertise list-changed notifications it can never send', async () => {
    const response = await postMcp(app.mcpUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
    });
    const capabilities = (response.json as { result: { capabilities: Record<string, { listChanged?: boolean }> } }).result.capabilities;
    expect(capabilities.resources?.listChanged).not.toBe(true);
    expect(capabilities.prompts?.listChanged).not.toBe(true);
    expect(capabilities.tools?.listChanged).not.toBe(true);
  });
});
