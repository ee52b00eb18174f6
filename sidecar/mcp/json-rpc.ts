/**
 * Checks one POSTed body before any MCP server sees it, and turns each failure into the JSON-RPC 2.0
 * error the specification assigns (§5.1): -32700 for a body that is not JSON, -32600 for JSON that is
 * not one JSON-RPC message (batches included: MCP 2025-06-18 removed them), -32602 for a known method
 * whose params do not match the MCP schema. The SDK server would report those params as -32603. Size,
 * width and depth were checked on the raw bytes before (read-body.ts).
 */
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { capIssues, truncateName } from '../../core/schemas/errors.ts';
import { parseWithIssues } from '../../core/schemas/issues.ts';

export type JsonRpcErrorBody = {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
};

export type MessageCheck =
  | { ok: true; message: JSONRPCMessage }
  | { ok: false; status: number; body: JsonRpcErrorBody };

/** The `-32000` range is for implementation-defined server errors; the SDK uses these two for HTTP-level refusals. */
export const TRANSPORT_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;

const requestSchemas = new Map<string, z.ZodType>(
  (ClientRequestSchema as unknown as { options: (z.ZodType & { shape: { method: { value: string } } })[] }).options.map(
    (schema) => [schema.shape.method.value, schema],
  ),
);

export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorBody {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

export function checkMessage(text: string): MessageCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(value)) {
    return refuse(400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one message per request');
  }
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) {
    return refuse(400, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
  }
  const message = envelope.data;
  if (isJSONRPCRequest(message)) {
    const schema = requestSchemas.get(message.method);
    const params = schema && parseWithIssues(schema, message);
    if (params !== undefined && !params.ok) {
      const problems = capIssues(params.issues).listed.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`);
      return {
        ok: false,
        status: 200,
        body: jsonRpcError(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${problems.join('; ')}`),
      };
    }
    // The SDK parses the URI with `new URL()` and would answer a malformed one with -32603 and a raw message.
    const uri = message.method === 'resources/read' ? (message.params as { uri?: unknown } | undefined)?.uri : undefined;
    if (typeof uri === 'string' && uri.length > MAX_URI_LENGTH) {
      return {
        ok: false,
        status: 200,
        body: jsonRpcError(message.id, ErrorCode.InvalidParams, `Invalid params for resources/read: uri is ${uri.length} characters long; at most ${MAX_URI_LENGTH} are accepted`),
      };
    }
    if (typeof uri === 'string' && !URL.canParse(uri)) {
      return {
        ok: false,
        status: 200,
        body: jsonRpcError(message.id, ErrorCode.InvalidParams, `Invalid params for resources/read: uri "${truncateName(uri)}" is not an absolute URI`),
      };
    }
  }
  return { ok: true, message };
}

/** Longest `resources/read` URI: a review's is under 100 characters. */
export const MAX_URI_LENGTH = 2_048;

function refuse(status: number, code: number, message: string): MessageCheck {
  return { ok: false, status, body: jsonRpcError(null, code, message) };
}
