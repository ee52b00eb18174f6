/**
 * One changes request, for REST (`GET /api/reviews/changes`) and MCP (`get_changes`) alike: the page of
 * the build's change log after `since`, or why there is none. A token this service did not issue is a
 * bad parameter, worded like every other cursor; a token the log can no longer honour is expired, and
 * the client must start again from /reviews.json (core/dataset/change-log.ts).
 */
import type { ErrorIssue } from '../schemas/errors.ts';
import type { ChangesResult } from '../schemas/changes.ts';
import { readChangePage } from './change-log.ts';
import type { LiveData } from './live-data.ts';

export type ChangesOutcome =
  | { ok: true; result: ChangesResult }
  | { ok: false; expired: false; issues: ErrorIssue[] }
  | { ok: false; expired: true; message: string; issues: ErrorIssue[] };

export function readChanges(
  live: Pick<LiveData, 'changes' | 'byId'>,
  query: { since?: string | undefined; limit: number; include_reviews?: boolean | undefined },
): ChangesOutcome {
  const page = readChangePage(live.changes, live.byId, query.since, query.limit, { compact: query.include_reviews === false });
  if (page.ok) {
    const { changes, next_token, has_more } = page;
    return { ok: true, result: { changes, count: changes.length, limit: query.limit, next_token, has_more } };
  }
  if (page.reason === 'invalid_token') return { ok: false, expired: false, issues: [{ path: ['since'], message: page.message, code: 'invalid_cursor' }] };
  return { ok: false, expired: true, message: page.message, issues: [{ path: ['since'], message: page.message, code: 'token_expired' }] };
}
