/**
 * The MCP tests' world: the fixture content folder built through the real content pipeline into
 * LiveData, and the MCP router in an Express app on port 0. Not a test file (no `.test.ts`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildPublication } from '../../core/dataset/build-dataset.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { createMcpRouter, type McpRouterDeps } from '../../sidecar/mcp/index.ts';

export const FIXTURE_DIR = path.join(import.meta.dirname, '../fixtures/mcp');
export const FIXTURE_PUBLIC_URL = 'https://reviews.harborlane.example';
export const TEST_SECRET = 'test-secret-0123456789abcdef';

export async function loadFixtureLive(publicUrl = FIXTURE_PUBLIC_URL): Promise<LiveData> {
  const content = await loadContent(path.join(FIXTURE_DIR, 'content'));
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const urls = createServiceUrls(publicUrl);
  const { dataset, insights } = buildPublication(content.value, urls);
  return createLiveData({ dataset, insights, urls });
}

export type RunningApp = { url: string; mcpUrl: URL; server: Server; close(): Promise<void> };

export type McpAppOptions = {
  live: LiveData;
  secret?: string;
  publicUrl?: string;
  allowedOrigins?: string[] | '*';
  rateLimit?: McpRouterDeps['rateLimit'];
};

/** An Express app with only the MCP router, listening on 127.0.0.1 with a free port. */
export async function startMcpApp(options: McpAppOptions): Promise<RunningApp> {
  const deps: McpRouterDeps = {
    getLive: () => options.live,
    config: {
      publicUrl: options.publicUrl ?? FIXTURE_PUBLIC_URL,
      mcp: { sessionSecret: options.secret ?? TEST_SECRET, allowedOrigins: options.allowedOrigins ?? [] },
    },
    rateLimit: options.rateLimit,
  };
  const app = express();
  app.use(createMcpRouter(deps));
  return listen(app);
}

export async function listen(handler: Parameters<typeof createServer>[1]): Promise<RunningApp> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    mcpUrl: new URL('/mcp', url),
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function connectClient(mcpUrl: URL, options: { sessionId?: string } = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'reviews-test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, options.sessionId === undefined ? {} : { sessionId: options.sessionId });
  await client.connect(transport);
  return { client, transport };
}

export const JSON_AND_SSE = 'application/json, text/event-stream';

/** A raw POST to /mcp, for the status-code tests. */
export async function postMcp(
  mcpUrl: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: JSON_AND_SSE, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text === '' ? undefined : JSON.parse(text) };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
} as const;

/** Initializes over raw HTTP and returns the session id from the response header. */
export async function initializeRaw(mcpUrl: URL): Promise<string> {
  const response = await postMcp(mcpUrl, INITIALIZE);
  const id = response.headers.get('mcp-session-id');
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: ${response.status}`);
  return id;
}
