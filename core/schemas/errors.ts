/** The one error body of the whole service (CONTRACT.md "Published shapes"), and every code it may carry. */
import { z } from 'zod';

/** Each code names one kind of failure; clients branch on it, people read `message`. */
export const ErrorCodeSchema = z
  .enum([
    'invalid_parameters',
    'invalid_date',
    'invalid_request',
    'bad_request',
    'callback_refused',
    'not_found',
    'token_expired',
    'method_not_allowed',
    'precondition_failed',
    'expectation_failed',
    'payload_too_large',
    'headers_too_large',
    'request_timeout',
    'unsupported_media_type',
    'rate_limited',
    'too_many_connections',
    'hub_busy',
    'callback_host_busy',
    'subscription_limit',
    'hub_unavailable',
    'publish_not_recorded',
    'not_ready',
    'cross_origin_refused',
    'forbidden',
    'internal_error',
  ])
  .meta({
    description:
      'Machine-readable code: `invalid_parameters` (search), `invalid_date` (since path), `invalid_request` and ' +
      '`callback_refused` (hub), `bad_request` (unreadable request), `not_found`, `token_expired` (410: a change-log ' +
      'token the log no longer honours; start again from /reviews.json), `method_not_allowed`, ' +
      '`precondition_failed` (If-Match), `expectation_failed` (417: an `Expect` other than 100-continue), ' +
      '`payload_too_large`, `headers_too_large` (431), `request_timeout` (408), `unsupported_media_type`, ' +
      '`rate_limited`, `too_many_connections` (per client address), `hub_busy` and `callback_host_busy` (too many ' +
      'verifications under way), `subscription_limit` (per callback host), `hub_unavailable` (its store cannot be ' +
      'used), `publish_not_recorded` (a publish ping whose change the store could not record yet; the hub retries), ' +
      '`not_ready` (/readyz), ' +
      '`cross_origin_refused` (a hub form posted by another site), `forbidden` (/metrics without its token, from ' +
      'off loopback), `internal_error`.',
  });

export const ErrorIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])).meta({ description: 'Where the problem is, e.g. `["limit"]`.' }),
  message: z.string(),
  code: z.string(),
});

export const ErrorBodySchema = z
  .object({
    error: ErrorCodeSchema,
    message: z.string().meta({ description: 'One sentence for a person.' }),
    issues: z.array(ErrorIssueSchema).optional(),
  })
  .meta({ id: 'Error' });

export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Most problems one error answer lists, over REST and MCP alike; the rest are counted, not listed. */
export const MAX_REPORTED_ISSUES = 20;
/** Longest name a client gave (a parameter, an argument, a tool) that an answer repeats whole. */
export const MAX_ECHOED_NAME = 64;

/** A client's name as an answer repeats it: cut to MAX_ECHOED_NAME characters, with "…" when cut. */
export function truncateName(name: string): string {
  return name.length <= MAX_ECHOED_NAME ? name : `${name.slice(0, MAX_ECHOED_NAME)}…`;
}

/**
 * The one cap on listed problems, for the REST error body, the MCP tool error and the JSON-RPC error
 * alike: the first MAX_REPORTED_ISSUES, each name a client gave cut short (`truncateName`), and how
 * many more there were. An 11 KB query of unknown names must not get a 372 KB answer.
 */
export function capIssues<I extends Pick<ErrorIssue, 'path'>>(issues: readonly I[]): { listed: I[]; more: number } {
  const listed = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({ ...issue, path: issue.path.map((p) => (typeof p === 'string' ? truncateName(p) : p)) }));
  return { listed, more: issues.length - listed.length };
}
