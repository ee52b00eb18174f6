/**
 * The sidecar's one error shape (CONTRACT.md: `{ error, message, issues? }`). Routes return or
 * throw `HttpError`; the error middleware and `sendError` are the only places that write it.
 */
import type { ServerResponse } from 'node:http';
import { NOSNIFF_HEADERS, READ_HEADERS } from '../../core/publishing/headers.ts';
import { MAX_REPORTED_ISSUES, truncateName, type ErrorBody, type ErrorCode, type ErrorIssue } from '../../core/schemas/errors.ts';

/**
 * Every status an error answer may carry: RFC 9110 §15.5–15.6, 429 and 431 from RFC 6585. A typo or a
 * success status cannot become an error answer.
 */
export const ERROR_STATUSES = [400, 403, 404, 405, 406, 408, 410, 412, 413, 415, 417, 429, 431, 500, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** A library's 4xx (body-parser's `status`) as one the service answers with: one it does not use is 400. */
export function toClientErrorStatus(status: number): ErrorStatus {
  const known = ERROR_STATUSES.find((s) => s === status);
  return known !== undefined && known < 500 ? known : 400;
}

export class HttpError extends Error {
  readonly status: ErrorStatus;
  readonly code: ErrorCode;
  readonly issues: ErrorIssue[] | undefined;
  readonly headers: Record<string, string>;
  /** False for answers no other origin may read (the hub): `nosniff` only, no CORS. */
  readonly cors: boolean;

  constructor(status: ErrorStatus, code: ErrorCode, message: string, options: ErrorOptions = {}) {
    const issues = options.issues;
    // At most MAX_REPORTED_ISSUES problems are listed (the message counts them all), and each name a
    // client gave is repeated cut short: an 11 KB query of unknown names must not get a 372 KB answer.
    super(issues && issues.length > MAX_REPORTED_ISSUES ? `${message} (${issues.length} problems; the first ${MAX_REPORTED_ISSUES} are listed)` : message);
    this.status = status;
    this.code = code;
    this.issues = issues?.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({ ...issue, path: issue.path.map((p) => (typeof p === 'string' ? truncateName(p) : p)) }));
    this.headers = options.headers ?? {};
    this.cors = options.cors ?? true;
  }

  toJSON(): ErrorBody {
    return { error: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) };
  }
}

export type ErrorOptions = { issues?: ErrorIssue[]; headers?: Record<string, string>; cors?: boolean };

export function sendError(res: ServerResponse, status: ErrorStatus, code: ErrorCode, message: string, options: ErrorOptions = {}): void {
  sendHttpError(res, new HttpError(status, code, message, options));
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  const body = JSON.stringify(error.toJSON());
  res.writeHead(error.status, {
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...(error.cors ? READ_HEADERS : NOSNIFF_HEADERS),
  });
  res.end(body);
}

export function methodNotAllowed(allow: readonly string[], options: { cors?: boolean } = {}): HttpError {
  return new HttpError(405, 'method_not_allowed', `This path answers ${allow.join(', ')} only.`, {
    headers: { Allow: allow.join(', ') },
    cors: options.cors,
  });
}
