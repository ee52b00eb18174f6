/**
 * The sidecar's one error shape (CONTRACT.md: `{ error, message, issues? }`). Routes return or
 * throw `HttpError`; the error middleware and `sendError` are the only places that write it.
 */
import type { ServerResponse } from 'node:http';
import { NOSNIFF_HEADERS, READ_HEADERS } from '../../core/publishing/headers.ts';
import { capIssues, type ErrorBody, type ErrorCode, type ErrorIssue } from '../../core/schemas/errors.ts';

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

type LibraryError = { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown };

/**
 * The one mapping from a library's client error (body-parser, the router, raw-body: a 4xx `status` or
 * `statusCode`) to the service's `HttpError`: 413 and 415 keep their codes, any other 4xx is `code`
 * (`bad_request` by default) with the library's message unless it is not for clients (`expose: false`)
 * or the caller words it. Undefined for anything else, which stays an unexpected error.
 */
export function fromLibraryClientError(error: unknown, { code = 'bad_request', message, ...options }: { code?: ErrorCode; message?: (status: ErrorStatus) => string } & ErrorOptions = {}): HttpError | undefined {
  const e = (typeof error === 'object' && error !== null ? error : {}) as LibraryError;
  const raw = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (raw === undefined || raw < 400 || raw >= 500) return undefined;
  const status = toClientErrorStatus(raw);
  const ownCode: ErrorCode = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : code;
  const text = message ? message(status) : e.expose === false ? 'Bad request.' : String(e.message);
  return new HttpError(status, ownCode, text, options);
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
    // At most MAX_REPORTED_ISSUES problems are listed (capIssues); the message counts them all.
    const capped = issues && capIssues(issues);
    super(capped && capped.more > 0 ? `${message} (${issues.length} problems; the first ${capped.listed.length} are listed)` : message);
    this.status = status;
    this.code = code;
    this.issues = capped?.listed;
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
