/**
 * One JSON-RPC message, one fresh server: every POST gets a new McpServer and a stateless
 * StreamableHTTPServerTransport (no session id generator), answering in JSON rather than SSE since
 * no tool streams progress. Nothing survives the request, so any instance can serve any session
 * (session ids are checked before this, in router.ts) and memory stays flat however many clients come.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import type { McpServerDeps } from './deps.ts';
import { buildServer } from './server.ts';

export async function serveMessage(req: Request, res: Response, message: JSONRPCMessage, deps: McpServerDeps): Promise<void> {
  const server = buildServer(deps, 'method' in message ? message.method : undefined);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, message);
}
