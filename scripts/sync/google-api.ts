/**
 * Google's APIs as they really behave, for the sync: an access token from the refresh token (OAuth
 * 2.0 token endpoint), refreshed once when it expires mid-way (401); 429 and 5xx retried a bounded
 * number of times, after `Retry-After` when Google gives one, else with a doubling backoff; every
 * other refusal a clear message saying what to do (invalid_grant: authorise again; 403: the API access
 * to apply for). Requests go through the service's outbound client (sidecar/outbound/): HTTPS only, a
 * time limit, a cap on the answer's size. The endpoints are the operator's settings, so loopback and
 * private addresses are allowed (a proxy, the tests' stand-in).
 */
import { z } from 'zod';
import { createOutboundClient, type OutboundClient } from '../../sidecar/outbound/outbound-client.ts';
import { describeZodIssue } from '../../core/schemas/issues.ts';
import { toPrintable } from '../../core/text/printable.ts';
import { AUTHORIZE_COMMAND, describeTokenRefusal, readOAuthErrorCode } from './oauth-errors.ts';

export { AUTHORIZE_COMMAND };
export const API_ACCESS_FORM = 'https://support.google.com/business/contact/api_default';
export const API_PREREQUISITES = 'https://developers.google.com/my-business/content/prereqs';

const MAX_RETRIES = 4;
/** Longer than this and the run gives up at once (the next scheduled run tries again). */
const MAX_RETRY_AFTER_MS = 120_000;

export type ApiResult<T> = { ok: true; value: T } | { ok: false; message: string };

export type GoogleCredentials = { clientId: string; clientSecret: string; refreshToken: string; tokenUrl: string };

export type GoogleApi = {
  /** A GET of a Google API URL as JSON, authorised with the access token. */
  getJson(url: string): Promise<ApiResult<unknown>>;
  close(): void;
};

const TokenAnswer = z.looseObject({ access_token: z.string().min(1) });
const ApiError = z.looseObject({ error: z.looseObject({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }) });

/** The most one answer of Google's may weigh: a page of 50 long reviews with replies and photos is well under 1 MB. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The outbound client the sync uses for Google's endpoints. */
export function createGoogleClient(options: { ca?: string }): OutboundClient {
  return createOutboundClient({
    subject: { noun: 'Google', refusal: 'which the sync does not call' },
    allowPrivate: true,
    ca: options.ca,
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 60_000,
    maxResponseBytes: MAX_ANSWER_BYTES,
    userAgent: 'reviews-service-sync/1.0',
  });
}

/**
 * A request sent again on 429, 5xx or a network failure, at most MAX_RETRIES times: the answer, or why
 * it never came.
 */
export async function sendWithRetries(
  client: OutboundClient,
  request: Parameters<OutboundClient['send']>[0],
  what: string,
  retryBaseMs: number,
  describe: (body: Buffer) => string = apiErrorText,
): Promise<ApiResult<{ status: number; body: Buffer }>> {
  for (let attempt = 0; ; attempt++) {
    const result = await client.send(request);
    const transient = result.ok ? result.response.status === 429 || result.response.status >= 500 : result.reason !== 'invalid-url' && result.reason !== 'refused';
    if (!transient && result.ok) {
      if (result.response.truncated) return { ok: false, message: `${what}: Google's answer is over ${MAX_ANSWER_BYTES / (1024 * 1024)} MB, more than any page of reviews; stopped` };
      return { ok: true, value: { status: result.response.status, body: result.response.body } };
    }
    const why = result.ok ? `Google answered ${result.response.status}${describe(result.response.body)}` : result.message;
    if (!transient) return { ok: false, message: `${what}: ${why}` };
    const wait = result.ok ? retryAfterMs(result.response.retryAfter) : undefined;
    if (wait !== undefined && wait > MAX_RETRY_AFTER_MS) {
      return { ok: false, message: `${what}: ${why} and asks to wait ${Math.ceil(wait / 1000)} s; the next run will try again` };
    }
    if (attempt >= MAX_RETRIES) {
      // Google's quota for a project not yet approved is 0: every call is a 429.
      const quota = result.ok && result.response.status === 429 ? ` (if it never passes, the project may not be approved yet: apply at ${API_ACCESS_FORM})` : '';
      return { ok: false, message: `${what}: ${why}, ${attempt + 1} times in a row; the next run will try again${quota}` };
    }
    await new Promise((resolve) => setTimeout(resolve, wait ?? retryBaseMs * 2 ** attempt));
  }
}

export function createGoogleApi(credentials: GoogleCredentials, options: { ca?: string; retryBaseMs?: number } = {}): GoogleApi {
  const client = createGoogleClient(options);
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  let accessToken: string | undefined;

  async function refresh(): Promise<ApiResult<string>> {
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      refresh_token: credentials.refreshToken,
    });
    const answer = await sendWithRetries(
      client,
      { method: 'POST', url: credentials.tokenUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(body.toString()) },
      'getting an access token',
      retryBaseMs,
      oauthErrorText,
    );
    if (!answer.ok) return answer;
    const json = parseJson(answer.value.body);
    if (answer.value.status === 200) {
      const token = TokenAnswer.safeParse(json);
      return token.success ? { ok: true, value: token.data.access_token } : { ok: false, message: "getting an access token: Google's answer has no access_token" };
    }
    return { ok: false, message: describeTokenRefusal('refresh', answer.value.status, json) };
  }

  async function getJson(url: string): Promise<ApiResult<unknown>> {
    for (let refreshed = false; ; refreshed = true) {
      if (accessToken === undefined || refreshed) {
        const token = await refresh();
        if (!token.ok) return token;
        accessToken = token.value;
      }
      const answer = await sendWithRetries(client, { method: 'GET', url, headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, `reading ${url}`, retryBaseMs);
      if (!answer.ok) return answer;
      const { status, body } = answer.value;
      // An access token lasts about an hour: one that expired mid-way is refreshed once.
      if (status === 401 && !refreshed) continue;
      if (status === 200) {
        const json = parseJson(body);
        return json === undefined ? { ok: false, message: `reading ${url}: Google's answer is not JSON` } : { ok: true, value: json };
      }
      return { ok: false, message: refusalMessage(status, body, url) };
    }
  }

  return { getJson, close: () => client.close() };
}

function refusalMessage(status: number, body: Buffer, url: string): string {
  const text = apiErrorText(body);
  if (status === 401) return `Google refused the access token twice (401${text}): authorise again with \`${AUTHORIZE_COMMAND}\``;
  if (status === 403) {
    return (
      `Google refused access (403${text}). The Business Profile APIs are open only to approved Google Cloud projects: apply for basic API access at ${API_ACCESS_FORM} ` +
      `(prerequisites: ${API_PREREQUISITES}), then enable the "Google My Business API" in the project; the Google account you authorised must also manage the location`
    );
  }
  if (status === 404) return `Google does not know ${url} (404${text}): check GOOGLE_LOCATION (\`npm run sync -- google --locations\` lists the ones the token sees)`;
  return `reading ${url}: Google answered ${status}${text}`;
}

/** Longer than this, Google's own explanation of a refusal is cut. */
const MAX_ERROR_TEXT = 300;

/**
 * ` PERMISSION_DENIED: The caller does not have permission`, from an API's JSON error, or nothing:
 * Google's message (it names the API to enable) printable and bounded, its status only if it is a code.
 */
function apiErrorText(body: Buffer): string {
  const api = ApiError.safeParse(parseJson(body), { error: describeZodIssue });
  if (!api.success) return '';
  const status = /^[A-Z_]{1,64}$/.test(api.data.error.status ?? '') ? api.data.error.status : undefined;
  const message = api.data.error.message === undefined ? undefined : toPrintable(cut(api.data.error.message, MAX_ERROR_TEXT));
  return ` ${[status, message].filter(Boolean).join(': ')}`.trimEnd();
}

/** ` invalid_client` when a token endpoint's answer names a documented OAuth error, else nothing: its free text is never printed. */
export function oauthErrorText(body: Buffer): string {
  const code = readOAuthErrorCode(parseJson(body));
  return code === undefined ? '' : ` ${code}`;
}

/** At most `max` characters of `text`, a cut marked with an ellipsis. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
export function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
