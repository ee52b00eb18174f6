/**
 * The two protocol endpoints. POST /mcp is MCP's streamable HTTP transport (protocol 2025-06-18): one
 * JSON-RPC message per POST; this server answers with JSON (never an SSE stream), and GET and DELETE,
 * which the transport lets a server decline, get 405. POST /api/websub/hub is a W3C WebSub hub; requests
 * are accepted with 202 and verified asynchronously (CONTRACT.md "WebSub decisions").
 */
import { PATHS } from '../urls.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { MCP_PROTOCOL_VERSION, WEBSUB_SECRET_MAX_BYTES } from './protocol-schemas.ts';

const jsonRpcError = (description: string, headers?: OpenApiObject): OpenApiObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', 'JsonRpcResponse') } },
});

const hubError = (description: string, headers?: OpenApiObject): OpenApiObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', 'Error') } },
});

const MCP_DESCRIPTION = [
  `Model Context Protocol over streamable HTTP, protocol version ${MCP_PROTOCOL_VERSION}. Send \`Content-Type: application/json\` and \`Accept: application/json, text/event-stream\`.`,
  'Start with `initialize`; the response carries `Mcp-Session-Id`, which every later request sends back. Then `tools/list` and `tools/call`.',
  'Tools are read-only over the review dataset: at least `get_business` and `search_reviews` (same arguments as `GET /api/reviews/search`). Every tool returns `structuredContent` matching its declared `outputSchema` and a text block with the same JSON; bad arguments give a result with `isError: true` naming each one.',
  'Browser requests are accepted only from allowed origins (DNS-rebinding protection); requests without `Origin` are accepted.',
].join('\n\n');

const HUB_DESCRIPTION = [
  '`subscribe` / `unsubscribe`: 202, then the hub verifies intent asynchronously with a GET to `hub.callback` carrying `hub.mode`, `hub.topic`, `hub.challenge` and `hub.lease_seconds`; only a 2xx whose body is exactly `hub.challenge` verifies. The callback must be HTTPS.',
  "Each change of a subscribed topic is POSTed to the callback with the full content, the topic's own `Content-Type` and `Link: <hub>; rel=\"hub\", <topic>; rel=\"self\"`; with `hub.secret`, also `X-Hub-Signature: sha256=<hex HMAC>`.",
  'After 3 consecutive failed deliveries (or one 410) the subscription is removed and the callback receives a `hub.mode=denied` GET. This departs from WebSub §7, which keeps a failing subscription until its lease ends; the interface asks for it.',
  '`publish` with `hub.url` (or `hub.topic`): the hub re-reads the topic and records it in its store, which decides whether the bytes changed (only then are subscribers notified). 202 only once the store has recorded it, with the store\'s verdict per topic re-read as its body (`/reviews.json` re-reads every slice feed too); 503 `publish_not_recorded` when it could not (the hub retries by itself until the store accepts it).',
].join('\n\n');

const mcpMethodNotAllowed = (method: string, why: string): OpenApiObject => ({
  operationId: `${method}McpStream`,
  tags: ['MCP'],
  summary: `${method.toUpperCase()} /mcp is not offered`,
  description: why,
  responses: { '405': jsonRpcError('Use POST. `Allow` lists the methods.', { Allow: ref('headers', 'Allow') }) },
});

export function buildProtocolPaths(): Record<string, OpenApiObject> {
  return {
    [PATHS.mcp]: {
      post: {
        operationId: 'postMcpMessage',
        tags: ['MCP'],
        summary: 'Send a JSON-RPC message to the MCP server',
        description: MCP_DESCRIPTION,
        parameters: [ref('parameters', 'McpSessionId'), ref('parameters', 'McpProtocolVersion')],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('schemas', 'JsonRpcRequest') } },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC response. After `initialize` it carries the new session id.',
            headers: { 'Mcp-Session-Id': ref('headers', 'McpSessionId') },
            content: { 'application/json': { schema: ref('schemas', 'JsonRpcResponse') } },
          },
          '202': { description: 'A notification or response was accepted. No body.' },
          '400': jsonRpcError(
            'Malformed JSON (-32700), not one JSON-RPC message (-32600; batches included), no session id, or an unsupported MCP-Protocol-Version.',
          ),
          '403': jsonRpcError('The `Origin` header names an origin that may not use this endpoint.'),
          '404': jsonRpcError('The session id is unknown or expired: initialize a new session.'),
          '406': jsonRpcError('`Accept` does not list both `application/json` and `text/event-stream`.'),
          '413': jsonRpcError('The body is larger than 1 MiB.'),
          '415': jsonRpcError('`Content-Type` is not `application/json`.'),
        },
      },
      get: mcpMethodNotAllowed('get', 'The server offers no server-initiated SSE stream; every answer comes with its POST.'),
      delete: mcpMethodNotAllowed('delete', 'Sessions are stateless (signed ids), so there is nothing to terminate.'),
    },
    [PATHS.hub]: {
      post: {
        operationId: 'postWebSubHubRequest',
        tags: ['WebSub'],
        summary: 'Subscribe, unsubscribe or publish',
        description: HUB_DESCRIPTION,
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: ref('schemas', 'WebSubHubRequest') } },
        },
        responses: {
          '202': {
            description:
              'Accepted: subscribe and unsubscribe are verified asynchronously (no body); a publish ping is answered once its topics are recorded in the store, with what the store recorded for each topic it re-read.',
            content: { 'application/json': { schema: ref('schemas', 'WebSubPublishVerdict') } },
          },
          '400': hubError(
            `Cannot be accepted, with the reason: not a form body, plain-HTTP callback, callback on a private network address (unless the hub allows them), unknown topic, bad mode, bad lease, secret over ${WEBSUB_SECRET_MAX_BYTES} bytes.`,
          ),
          '413': hubError('The form body is too large.'),
          '429': hubError('Too many hub requests from this address.', { 'Retry-After': ref('headers', 'RetryAfter') }),
          '503': hubError(
            'The hub cannot take the request right now: `hub_busy` / `callback_host_busy` (verifications under way), `hub_unavailable` (its store is failing; the message names why), `publish_not_recorded` (a publish ping whose change the store could not record yet: the hub retries it by itself).',
            { 'Retry-After': ref('headers', 'RetryAfter') },
          ),
        },
      },
    },
  };
}
