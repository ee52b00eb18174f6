/**
 * What an OAuth 2.0 error from Google means, in our words. The `error` member of a token endpoint's answer
 * (RFC 6749 §5.2) or of the redirect back from the consent page (§4.1.2.1) is one of a few documented
 * codes; `error_description` and anything else in the body is free text from the network, which is never
 * printed (issue 43 item 5): a known code gets a fixed sentence, anything else one generic line.
 */
import { z } from 'zod';

export const AUTHORIZE_COMMAND = 'npm run sync -- google --authorize';

const REPORT = 'the sync sent something Google does not accept: please report it';

/** RFC 6749 §5.2, with what each means for this command. `invalid_grant` depends on the grant: see below. */
const TOKEN_ERRORS: Record<string, string> = {
  invalid_request: REPORT,
  invalid_client: 'Google does not know this OAuth client: check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  unauthorized_client: 'this OAuth client may not use this grant: create the client as a "Desktop app" (docs/import.md "Sync")',
  unsupported_grant_type: REPORT,
  invalid_scope: 'Google refused the scope business.manage: enable the Business Profile APIs in the project (docs/import.md "Sync")',
};

/** RFC 6749 §4.1.2.1: the codes the consent page sends back instead of a code. */
const CONSENT_ERRORS: Record<string, string> = {
  access_denied: 'access was not allowed on the consent page',
  invalid_request: REPORT,
  unauthorized_client: TOKEN_ERRORS.unauthorized_client!,
  unsupported_response_type: REPORT,
  invalid_scope: TOKEN_ERRORS.invalid_scope!,
  server_error: 'Google failed on its side: try again later',
  temporarily_unavailable: 'Google is busy: try again later',
};

/** What `invalid_grant` means for each grant the sync sends. */
const INVALID_GRANT = {
  refresh: `the refresh token was revoked, it expired (a client whose consent screen is in "testing" gets tokens that last 7 days), or it belongs to another OAuth client: authorise again with \`${AUTHORIZE_COMMAND}\``,
  code: 'the code expired or was used already: run the command again',
} as const;

const OAuthErrorSchema = z.looseObject({ error: z.string() });

const has = (table: Record<string, string>, code: string) => Object.hasOwn(table, code);

/** The documented OAuth error code in a token endpoint's JSON answer, or undefined. */
export function readOAuthErrorCode(json: unknown): string | undefined {
  const parsed = OAuthErrorSchema.safeParse(json);
  return parsed.success && (has(TOKEN_ERRORS, parsed.data.error) || parsed.data.error === 'invalid_grant') ? parsed.data.error : undefined;
}

/**
 * One line for a token endpoint's refusal of `grant`: `Google refused the refresh token (invalid_grant):
 * …`, or a generic line with the HTTP status when the body holds no documented code.
 */
export function describeTokenRefusal(grant: keyof typeof INVALID_GRANT, status: number, json: unknown): string {
  const subject = grant === 'refresh' ? 'the refresh token' : 'the authorisation code';
  const code = readOAuthErrorCode(json);
  if (code === undefined) return `Google's token endpoint refused ${subject} (${status}) without a documented OAuth error code`;
  return `Google refused ${subject} (${code}): ${code === 'invalid_grant' ? INVALID_GRANT[grant] : TOKEN_ERRORS[code]}`;
}

/** One line for the `error` the consent page redirected back with. */
export function describeConsentError(error: string): string {
  return has(CONSENT_ERRORS, error) ? `Google answered ${error}: ${CONSENT_ERRORS[error]}` : 'Google answered with an error that OAuth does not document';
}
