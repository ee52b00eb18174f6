/**
 * Shapes of the two protocol endpoints as the OpenAPI document shows them: JSON-RPC 2.0 messages on
 * POST /mcp (MCP 2025-06-18 "Transports": one message per POST, no batches) and the form body of the
 * WebSub hub (W3C WebSub §5.1, §5.1.1; hub.mode=publish and hub.secret per CONTRACT.md).
 * The MCP server and the hub parse their own input; these schemas only document it.
 */
import { z } from 'zod';

export const MCP_PROTOCOL_VERSION = '2025-06-18';
/** CONTRACT.md "WebSub decisions": a longer secret is refused. */
export const WEBSUB_SECRET_MAX_BYTES = 200;

const JsonRpcIdSchema = z.union([z.string(), z.int()]).meta({ description: 'Request id, echoed in the response.' });

export const JsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.optional().meta({ description: 'Absent for a notification, which is answered with 202.' }),
    method: z.string().meta({ description: '`initialize`, `tools/list`, `tools/call`, `notifications/initialized`, …' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    description: 'A JSON-RPC 2.0 request or notification.',
    examples: [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'example-client', version: '1.0.0' },
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: { rating: 5, limit: 3 } } },
    ],
  });

export const JsonRpcErrorObjectSchema = z.object({
  code: z.int().meta({ description: 'JSON-RPC 2.0 §5.1 code, e.g. -32700 parse error, -32600 invalid request.' }),
  message: z.string(),
  data: z.unknown().optional(),
});

export const JsonRpcResponseSchema = z
  .union([
    z.object({
      jsonrpc: z.literal('2.0'),
      id: JsonRpcIdSchema,
      result: z.record(z.string(), z.unknown()),
    }),
    z.object({
      jsonrpc: z.literal('2.0'),
      id: JsonRpcIdSchema.nullable(),
      error: JsonRpcErrorObjectSchema,
    }),
  ])
  .meta({ description: 'A JSON-RPC 2.0 response: `result` on success, `error` otherwise (`id` null when unknown).' });

export function createWebSubHubRequestSchema(topics: readonly string[], feedsIndexUrl: string) {
  // The seed topics are fixed; the slice feeds follow the content, so they are named by their list.
  const TopicSchema = z.url();
  const which = `${topics.join(', ')}, or a feed listed in ${feedsIndexUrl}; any other URL is refused with 400`;
  return z
    .object({
      'hub.mode': z.enum(['subscribe', 'unsubscribe', 'publish']).meta({
        description: 'subscribe or unsubscribe a callback, or publish: ask the hub to re-read a topic.',
      }),
      // zod's protocol check does not reach the JSON Schema; the pattern states it there.
      'hub.callback': z.url({ protocol: /^https$/ }).optional().meta({
        pattern: '^https://',
        description: 'HTTPS URL of the subscriber; required to subscribe or unsubscribe. Plain HTTP is refused with 400.',
      }),
      'hub.topic': TopicSchema.optional().meta({
        description: `Topic URL (${which}); required to subscribe or unsubscribe, and accepted for publish.`,
      }),
      'hub.lease_seconds': z.int().min(1).optional().meta({
        description: 'Requested lease; the hub grants it within its configured minimum and maximum and says so in the verification request.',
      }),
      'hub.secret': z.string().min(1).optional().meta({
        description: `Up to ${WEBSUB_SECRET_MAX_BYTES} bytes; notifications then carry \`X-Hub-Signature: sha256=<hex HMAC of the body>\`.`,
      }),
      'hub.url': TopicSchema.optional().meta({ description: `Topic to re-read for hub.mode=publish (hub.topic also works): ${which}.` }),
    })
    .meta({
      description: 'Form fields of a hub request (`application/x-www-form-urlencoded`).',
      examples: [{ 'hub.mode': 'subscribe', 'hub.callback': 'https://subscriber.example/callback', 'hub.topic': topics[0] }],
    });
}
