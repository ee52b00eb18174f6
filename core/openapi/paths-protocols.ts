/**
 * The two protocol endpoints. POST /mcp is MCP's streamable HTTP transport (protocol 2025-06-18): one
 * JSON-RPC message per POST, answered with JSON or an SSE stream. POST /api/websub/hub is a W3C WebSub
 * hub; requests are accepted with 202 and verified asynchronously (CONTRACT.md "WebSub decisions").
 */
import { PATHS } from '../urls.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { MCP_PROTOCOL_VERSION, WEBSUB_SECRET_MAX_BYTES } from './protocol-schemas.ts';

const jsonRpcError = (description: string): OpenApiObject => ({
  description,
  content: { 'application/json': { schema: ref('schemas', 'JsonRpcResponse') } },
});

const hubRefusal = (description: string, headers?: OpenApiObject): OpenApiObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'text/plain': { schema: { type: 'string' } },
    'application/json': { schema: ref('schemas', 'Error') },
  },
});

export function buildProtocolPaths(): Record<string, OpenApiObject> {
  return {
    [PATHS.mcp]: {
      post: {
        operationId: 'postMcpMessage',
        tags: ['MCP'],
        summary: 'Send a JSON-RPC message to the MCP server',
        description: [
          `Model Context Protocol over streamable HTTP, protocol version ${MCP_PROTOCOL_VERSION}. Send \`Content-Type: application/json\` and \`Accept: application/json, text/event-stream\`.`,
          'Start with `initialize`; the response carries `Mcp-Session-Id`, which every later request sends back. Then `tools/list` and `tools/call`.',
          'Tools are read-only over the review dataset: at least `get_business` and `search_reviews` (same arguments as `GET /api/reviews/search`). Every tool returns `structuredContent` matching its declared `outputSchema` and a text block with the same JSON; bad arguments give a result with `isError: true` naming each one.',
          'Browser requests are accepted only from allowed origins (DNS-rebinding protection); requests without `Origin` are accepted.',
        ].join('\n\n'),
        parameters: [ref('parameters', 'McpSessionId'), ref('parameters', 'McpProtocolVersion')],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('schemas', 'JsonRpcRequest') } },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC response, as JSON or as a server-sent event stream.',
            headers: { 'Mcp-Session-Id': ref('headers', 'McpSessionId') },
            content: {
              'application/json': { schema: ref('schemas', 'JsonRpcResponse') },
              'text/event-stream': { schema: { type: 'string', description: 'SSE events whose data are JSON-RPC messages.' } },
            },
          },
          '202': { description: 'A notification or response was accepted. No body.' },
          '400': jsonRpcError(
            'Malformed JSON (-32700) or JSON-RPC message (-32600), a missing or invalid session id, or an unsupported MCP-Protocol-Version.',
          ),
          '403': jsonRpcError('The `Origin` header names an origin that may not use this endpoint.'),
          '404': jsonRpcError('The session id is unknown or expired: initialize a new session.'),
          '406': jsonRpcError('`Accept` does not list both `application/json` and `text/event-stream`.'),
        },
      },
    },
    [PATHS.hub]: {
      post: {
        operationId: 'postWebSubHubRequest',
        tags: ['WebSub'],
        summary: 'Subscribe, unsubscribe or publish',
        description: [
          '`subscribe` / `unsubscribe`: 202, then the hub verifies intent asynchronously with a GET to `hub.callback` carrying `hub.mode`, `hub.topic`, `hub.challenge` and `hub.lease_seconds`; only a 2xx whose body is exactly `hub.challenge` verifies. The callback must be HTTPS.',
          'Each change of a subscribed topic is POSTed to the callback with the full content, the topic\'s own `Content-Type` and `Link: <hub>; rel="hub", <topic>; rel="self"`; with `hub.secret`, also `X-Hub-Signature: sha256=<hex HMAC>`.',
          'After 3 consecutive failed deliveries (or one 410) the subscription is removed and the callback receives a `hub.mode=denied` GET. This departs from WebSub §7, which keeps a failing subscription until its lease ends; the interface asks for it.',
          '`publish` with `hub.url` (or `hub.topic`): 202; the hub re-reads the topic and notifies only if its bytes changed.',
        ].join('\n\n'),
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: ref('schemas', 'WebSubHubRequest') } },
        },
        responses: {
          '202': { description: 'Accepted; verification (or the re-read for publish) happens asynchronously. No body.' },
          '400': hubRefusal(
            `Cannot be accepted: plain-HTTP callback, callback on a private network address (unless the hub allows them), unknown topic, bad mode, bad lease, secret over ${WEBSUB_SECRET_MAX_BYTES} bytes. The body gives the reason.`,
          ),
          '429': hubRefusal('Too many requests; try again later.', { 'Retry-After': ref('headers', 'RetryAfter') }),
        },
      },
    },
  };
}
