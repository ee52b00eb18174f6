/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP (MCP 2025-06-18 "Transports"; clients
 * negotiating 2025-11-25 are served the same way). The order of checks decides the status code:
 *
 *   Origin not allowed → 403 · Accept without application/json and text/event-stream → 406 ·
 *   Content-Type not JSON → 415 · body not JSON → 400/-32700 · batch or not JSON-RPC → 400/-32600 ·
 *   bad params of a known method → 200 with -32602 · `initialize` → new signed Mcp-Session-Id ·
 *   any other message without Mcp-Session-Id → 400, with one this secret did not sign → 404 ·
 *   unsupported MCP-Protocol-Version → 400 · notification or response → 202 · request → 200 JSON.
 *
 * GET and DELETE answer 405 with `Allow`: the server offers no server-initiated SSE stream, and a
 * stateless session cannot be terminated (both allowed by the specification). Browser origins that
 * pass the Origin check get CORS headers, with Mcp-Session-Id exposed so browser clients can read it.
 */
import type { RequestHandler, Response, Router } from 'express';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LiveData } from '../../core/dataset/live-data.ts';
import { NOSNIFF_HEADERS } from '../../core/publishing/headers.ts';
import { PATHS } from '../../core/urls.ts';
import type { Config } from '../../core/config.ts';
import { checkMessage, jsonRpcError, SESSION_NOT_FOUND, TRANSPORT_ERROR, type JsonRpcErrorBody } from './json-rpc.ts';
import { leadingRequestId, MAX_BODY_BYTES, readMcpBody, type BodyRead } from './read-body.ts';
import { createOriginPolicy } from './origin.ts';
import { createSessionIds } from './session-id.ts';
import { serveMessage } from './transport.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { createRateLimitMiddleware, type RateLimitOptions } from '../http/rate-limit.ts';

export type McpRouterDeps = {
  getLive: () => LiveData;
  config: Pick<Config, 'publicUrl'> & { mcp: Pick<Config['mcp'], 'allowedOrigins'> & { sessionSecret: string } };
  /** Per client address (IPv6 by /64); none when absent (the composition root passes `config.mcp.rateLimit`). */
  rateLimit?: RateLimitOptions;
};

const ALLOW = 'POST, OPTIONS';
const CORS_ALLOW_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';

export function createMcpRouter(deps: McpRouterDeps): Router {
  const origins = createOriginPolicy({ publicUrl: deps.config.publicUrl, allowedOrigins: deps.config.mcp.allowedOrigins });
  const sessions = createSessionIds(deps.config.mcp.sessionSecret);
  const serverDeps = { getLive: deps.getLive };
  const router = createStrictRouter();
  const limitRate: RequestHandler = deps.rateLimit
    ? createRateLimitMiddleware(deps.rateLimit, (res, seconds) =>
        sendError(res, 429, jsonRpcError(null, TRANSPORT_ERROR, `Too Many Requests: too many MCP requests from this address; retry in ${seconds} s`)),
      )
    : (_req, _res, next) => next();

  // Full paths, so the router can be mounted with app.use(router) beside the others and touches nothing else.
  router
    .route(PATHS.mcp)
    .all((req, res, next) => {
      // Every answer, success or error: JSON-RPC is never cached and never sniffed as another type.
      res.set({ ...NOSNIFF_HEADERS, 'Cache-Control': 'no-store' });
      const origin = req.get('origin');
      if (!origins.allows(origin)) return sendError(res, 403, jsonRpcError(null, TRANSPORT_ERROR, `Forbidden: Origin ${origin?.slice(0, 200)} is not allowed`));
      if (origin !== undefined) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
        res.append('Vary', 'Origin');
      }
      next();
    })
    .options((req, res) => {
      // Only what answers: GET and DELETE get 405, so a preflight does not offer them.
      res.setHeader('Access-Control-Allow-Methods', ALLOW);
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', '86400');
      res.setHeader('Allow', ALLOW);
      res.status(204).end();
    })
    .post(limitRate, checkHeaders, async (req, res) => {
      const read = await readMcpBody(req);
      if (!read.ok) return refuseBody(res, read);
      const checked = checkMessage(read.text);
      if (!checked.ok) return sendError(res, checked.status, checked.body);
      const { message } = checked;
      if (isInitializeRequest(message)) {
        res.setHeader('Mcp-Session-Id', sessions.issue());
      } else {
        const sessionId = req.get('mcp-session-id');
        if (sessionId === undefined || sessionId === '') {
          return sendError(res, 400, jsonRpcError(null, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required; call initialize first'));
        }
        if (!sessions.verify(sessionId)) {
          return sendError(res, 404, jsonRpcError(null, SESSION_NOT_FOUND, 'Session not found; call initialize to start a new session'));
        }
        const version = req.get('mcp-protocol-version');
        if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
          const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
          return sendError(res, 400, jsonRpcError(null, TRANSPORT_ERROR, `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${supported})`));
        }
      }
      await serveMessage(req, res, message, serverDeps);
    })
    .all((req, res) => {
      res.setHeader('Allow', ALLOW);
      const message = `Method Not Allowed: ${req.method} ${PATHS.mcp}; this server offers no SSE stream and its sessions need no termination. Use POST.`;
      sendError(res, 405, jsonRpcError(null, TRANSPORT_ERROR, message));
    });

  return router;
}

/** A body refused before it was parsed, in JSON-RPC, rather than by the app's error middleware. */
function refuseBody(res: Response, read: Exclude<BodyRead, { ok: true }>): void {
  // The rest of a refused body is dropped, not read: the connection is not reused after it.
  res.setHeader('Connection', 'close');
  if (read.reason === 'too-large') return sendError(res, 413, jsonRpcError(null, TRANSPORT_ERROR, `Payload Too Large: at most ${MAX_BODY_BYTES} bytes`));
  if (read.reason === 'unsupported-encoding') {
    return sendError(res, 415, jsonRpcError(null, TRANSPORT_ERROR, 'Unsupported Media Type: the body must be sent without Content-Encoding'));
  }
  if (read.reason === 'aborted') return sendError(res, 400, jsonRpcError(null, ErrorCode.ParseError, 'Parse error: the body could not be read'));
  // Refused before any schema sees it: validating and reporting tens of thousands of keys costs far more
  // than the body's size suggests (issue 10: 60,000 unknown arguments, 330 ms, an 11 MB answer).
  const id = leadingRequestId(read.prefix);
  if (id === undefined) return sendError(res, 400, jsonRpcError(null, ErrorCode.InvalidRequest, `Invalid Request: ${read.message}`));
  sendError(res, 200, jsonRpcError(id, ErrorCode.InvalidParams, `Invalid params: ${read.message}`));
}

/** MCP 2025-06-18 "Sending Messages to the Server": the client MUST accept both types, and send JSON. */
const checkHeaders: RequestHandler = (req, res, next) => {
  const accept = req.get('accept') ?? '';
  if (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream')) {
    return sendError(res, 406, jsonRpcError(null, TRANSPORT_ERROR, 'Not Acceptable: Accept must list both application/json and text/event-stream'));
  }
  const contentType = req.get('content-type') ?? '';
  if (mediaTypeOf(contentType) !== 'application/json') {
    return sendError(res, 415, jsonRpcError(null, TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json'));
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return sendError(res, 415, jsonRpcError(null, TRANSPORT_ERROR, 'Unsupported Media Type: the body must be UTF-8 JSON'));
  }
  // Media types are case-insensitive (RFC 9110 §8.3.1); the SDK transport checks them again as written.
  req.headers.accept = 'application/json, text/event-stream';
  next();
};

function acceptsMediaType(accept: string, type: string): boolean {
  return accept.split(',').some((part) => mediaTypeOf(part) === type);
}

function mediaTypeOf(header: string): string {
  return header.split(';')[0]!.trim().toLowerCase();
}

function sendError(res: Response, status: number, body: JsonRpcErrorBody): void {
  res.status(status).type('application/json').send(JSON.stringify(body));
}
