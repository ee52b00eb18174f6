/**
 * The sidecar's one error shape (CONTRACT.md: `{ error, message, issues? }`). Routes return or
 * throw `HttpError`; the error middleware and `sendError` are the only places that write it.
 */
import type { ServerResponse } from 'node:http';
import { READ_HEADERS } from '../../core/publishing/headers.ts';
import type { ErrorBody, ErrorCode, ErrorIssue } from '../../core/schemas/errors.ts';

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly issues: ErrorIssue[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, options: { issues?: ErrorIssue[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorBody {
    return { error: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) };
  }
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  options: { issues?: ErrorIssue[]; headers?: Record<string, string> } = {},
): void {
  sendHttpError(res, new HttpError(status, code, message, options));
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  const body = JSON.stringify(error.toJSON());
  res.writeHead(error.status, {
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...READ_HEADERS,
  });
  res.end(body);
}

export function methodNotAllowed(allow: readonly string[]): HttpError {
  return new HttpError(405, 'method_not_allowed', `This path answers ${allow.join(', ')} only.`, {
    headers: { Allow: allow.join(', ') },
  });
}
