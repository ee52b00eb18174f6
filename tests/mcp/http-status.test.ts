/** Raw HTTP against /mcp: every status code of the Streamable HTTP transport (issue 3 item 1). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, JSON_AND_SSE, initializeRaw, loadFixtureLive, postMcp, startMcpApp, type RunningApp } from './mcp-fixture.ts';

let app: RunningApp;
let sessionId: string;

beforeAll(async () => {
  app = await startMcpApp({ live: await loadFixtureLive(), allowedOrigins: ['https://inspector.example'] });
  sessionId = await initializeRaw(app.mcpUrl);
});
afterAll(() => app.close());

const withSession = () => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
const request = (method: string, params?: object, id: number | string = 2) => ({ jsonrpc: '2.0', id, method, ...(params && { params }) });

describe('initialize', () => {
  it('answers 200 JSON with a signed Mcp-Session-Id header and the negotiated version', async () => {
    const response = await postMcp(app.mcpUrl, INITIALIZE);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'reviews-service' } } });
    expect((response.json as { result: { instructions: string } }).result.instructions).toContain('search_reviews');
  });

  it.each(['2025-11-25', '2025-03-26'])('negotiates protocol version %s', async (version) => {
    const response = await postMcp(app.mcpUrl, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } });
    expect(response.json).toMatchObject({ result: { protocolVersion: version } });
  });

  it('offers its latest version to a client asking for an unknown one', async () => {
    const response = await postMcp(app.mcpUrl, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '1999-01-01' } });
    expect(response.json).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('issues a different session id each time', async () => {
    const [a, b] = await Promise.all([initializeRaw(app.mcpUrl), initializeRaw(app.mcpUrl)]);
    expect(a).not.toBe(b);
  });
});

describe('sessions', () => {
  it('answers a request with a valid session id', async () => {
    const response = await postMcp(app.mcpUrl, request('tools/list'), withSession());
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
  });

  it('refuses a request without Mcp-Session-Id with 400', async () => {
    const response = await postMcp(app.mcpUrl, request('tools/list'));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Mcp-Session-Id') } });
  });

  it.each([
    ['unknown', 'not-a-session'],
    ['forged', `${'A'.repeat(22)}.${'B'.repeat(43)}`],
  ])('answers 404 to an %s session id', async (_, id) => {
    const response = await postMcp(app.mcpUrl, request('tools/list'), { 'mcp-session-id': id });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ error: { code: -32001 } });
  });

  it('answers 404 to a session id with one character changed', async () => {
    const tampered = sessionId.slice(0, -1) + (sessionId.endsWith('A') ? 'B' : 'A');
    const response = await postMcp(app.mcpUrl, request('tools/list'), { 'mcp-session-id': tampered });
    expect(response.status).toBe(404);
  });

  it('accepts a session id minted by another instance sharing the secret, and refuses one from another secret', async () => {
    const twin = await startMcpApp({ live: await loadFixtureLive() });
    const stranger = await startMcpApp({ live: await loadFixtureLive(), secret: 'another-secret-0123456789' });
    try {
      const fromTwin = await postMcp(twin.mcpUrl, request('ping'), withSession());
      expect(fromTwin.status).toBe(200);
      expect(fromTwin.json).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      const fromStranger = await postMcp(stranger.mcpUrl, request('ping'), withSession());
      expect(fromStranger.status).toBe(404);
    } finally {
      await Promise.all([twin.close(), stranger.close()]);
    }
  });
});

describe('notifications and responses', () => {
  it('answers 202 with no body to a notification', async () => {
    const response = await postMcp(app.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, withSession());
    expect(response.status).toBe(202);
    expect(response.json).toBeUndefined();
  });

  it('answers 202 to a JSON-RPC response sent by the client', async () => {
    const response = await postMcp(app.mcpUrl, { jsonrpc: '2.0', id: 'x', result: {} }, withSession());
    expect(response.status).toBe(202);
  });
});

describe('headers', () => {
  it.each([['application/json'], ['text/event-stream'], ['text/html'], ['*/*']])('answers 406 to Accept: %s', async (accept) => {
    const response = await postMcp(app.mcpUrl, request('ping'), { ...withSession(), accept });
    expect(response.status).toBe(406);
    expect(response.json).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Not Acceptable') } });
  });

  it('answers 415 to a body that is not declared JSON', async () => {
    const response = await postMcp(app.mcpUrl, JSON.stringify(request('ping')), { ...withSession(), 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
  });

  it('answers 400 to an unsupported MCP-Protocol-Version', async () => {
    const response = await postMcp(app.mcpUrl, request('ping'), { ...withSession(), 'mcp-protocol-version': '2024-01-01' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { message: expect.stringContaining('2025-06-18') } });
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('accepts MCP-Protocol-Version %s', async (version) => {
    const response = await postMcp(app.mcpUrl, request('ping'), { ...withSession(), 'mcp-protocol-version': version });
    expect(response.status).toBe(200);
  });

  it('assumes a supported version when MCP-Protocol-Version is absent', async () => {
    const response = await postMcp(app.mcpUrl, request('ping'), { 'mcp-session-id': sessionId });
    expect(response.status).toBe(200);
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const response = await postMcp(app.mcpUrl, request('ping', { pad: 'x'.repeat(1024 * 1024) }), withSession());
    expect(response.status).toBe(413);
  });
});

describe('JSON-RPC errors', () => {
  it('answers 400 with -32700 to a body that is not JSON', async () => {
    const response = await postMcp(app.mcpUrl, '{"jsonrpc": "2.0", "id": 1,', withSession());
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers 400 with -32700 to an empty body', async () => {
    const response = await postMcp(app.mcpUrl, '', withSession());
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: -32700 } });
  });

  it('accepts Content-Type application/json with a charset', async () => {
    const response = await postMcp(app.mcpUrl, request('ping'), { ...withSession(), 'content-type': 'application/json; charset=utf-8' });
    expect(response.status).toBe(200);
  });

  it('refuses a batch with 400 and -32600', async () => {
    const response = await postMcp(app.mcpUrl, [request('ping', undefined, 1), request('tools/list', undefined, 2)], withSession());
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('batch') } });
  });

  it.each([
    ['a string', '"hello"'],
    ['an object without jsonrpc', JSON.stringify({ id: 1, method: 'ping' })],
    ['jsonrpc 1.0', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ping' })],
    ['a numeric method', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 7 })],
    ['a null id', JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' })],
  ])('answers 400 with -32600 to %s', async (_, body) => {
    const response = await postMcp(app.mcpUrl, body, withSession());
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: -32600 } });
  });

  it('answers -32601 to an unknown method', async () => {
    const response = await postMcp(app.mcpUrl, request('reviews/delete'), withSession());
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: 2, error: { code: -32601 } });
  });

  it('answers -32602 to an unknown tool', async () => {
    const response = await postMcp(app.mcpUrl, request('tools/call', { name: 'delete_reviews', arguments: {} }), withSession());
    expect(response.json).toMatchObject({ id: 2, error: { code: -32602, message: 'Unknown tool: delete_reviews' } });
  });

  it.each([
    ['tools/call without a name', 'tools/call', { arguments: {} }],
    ['tools/call with array arguments', 'tools/call', { name: 'get_business', arguments: [] }],
    ['resources/read without a uri', 'resources/read', {}],
    ['initialize without clientInfo', 'initialize', { protocolVersion: '2025-06-18', capabilities: {} }],
  ])('answers -32602 to %s', async (_, method, params) => {
    const response = await postMcp(app.mcpUrl, request(method, params), withSession());
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: 2, error: { code: -32602, message: expect.stringContaining('Invalid params') } });
  });
});

describe('GET and DELETE', () => {
  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(app.mcpUrl, { method, headers: { accept: 'text/event-stream', ...withSession() } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await response.json()).toMatchObject({ error: { code: -32000 } });
  });
});

describe('Origin and CORS', () => {
  it('refuses a foreign Origin with 403, before anything else', async () => {
    const response = await postMcp(app.mcpUrl, INITIALIZE, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each(['https://reviews.harborlane.example', 'https://inspector.example'])('accepts Origin %s and exposes Mcp-Session-Id', async (origin) => {
    const response = await postMcp(app.mcpUrl, INITIALIZE, { origin });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('answers a preflight from an allowed origin', async () => {
    const response = await fetch(app.mcpUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-session-id');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
  });

  it('refuses a preflight from a foreign origin with 403', async () => {
    const response = await fetch(app.mcpUrl, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(response.status).toBe(403);
  });

  it('accepts any Origin when the allow-list is *', async () => {
    const open = await startMcpApp({ live: await loadFixtureLive(), allowedOrigins: '*' });
    try {
      expect((await postMcp(open.mcpUrl, INITIALIZE, { origin: 'https://anything.example' })).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('leaves other paths alone', async () => {
    const response = await fetch(new URL('/other', app.url), { headers: { origin: 'https://evil.example', accept: JSON_AND_SSE } });
    expect(response.status).toBe(404);
  });
});
