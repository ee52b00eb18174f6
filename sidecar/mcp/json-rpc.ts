/**
 * Checks one POSTed body before any MCP server sees it, and turns each failure into the JSON-RPC 2.0
 * error the specification assigns (§5.1): -32700 for a body that is not JSON, -32600 for JSON that is
 * not one JSON-RPC message (batches included: MCP 2025-06-18 removed them), -32602 for a known method
 * whose params do not match the MCP schema. The SDK server would report those params as -32603.
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
    const params = schema?.safeParse(message);
    if (params !== undefined && !params.success) {
      const problems = params.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`);
      return {
        ok: false,
        status: 200,
        body: jsonRpcError(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${problems.join('; ')}`),
      };
    }
  }
  return { ok: true, message };
}

function refuse(status: number, code: number, message: string): MessageCheck {
  return { ok: false, status, body: jsonRpcError(null, code, message) };
}
