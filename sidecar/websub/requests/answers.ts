/**
 * What the hub answers a request (the router turns it into HTTP): 202, or an error status with the
 * service's error body. The refusals that more than one room gives are built here, once.
 */
import type { ErrorBody } from '../../../core/schemas/errors.ts';
import type { PublishVerdict } from '../../../core/schemas/publish-verdict.ts';
import type { HubRequestResult } from './parse-request.ts';
import type { TopicCheck } from '../topics/record-contents.ts';
import { describeError } from '../store/connector.ts';

/**
 * A publish ping gets 202 only once the store has recorded every named topic (changed or not), with the
 * store's verdict per topic as its body; otherwise 503 `publish_not_recorded`, and the hub keeps retrying
 * the recording itself. Subscribe and unsubscribe get a 202 with no body.
 */
export type HubAnswer = { status: 202; verdict?: PublishVerdict } | Refusal;

export type Refusal = { status: 400 | 403 | 503; body: ErrorBody; retryAfterSeconds?: number };

export const ACCEPTED: HubAnswer = { status: 202 };

export function published(checks: readonly TopicCheck[]): HubAnswer {
  return { status: 202, verdict: { topics: checks.map(({ topic, changed, enqueued }) => ({ topic, changed, subscribers: enqueued })) } };
}

/** The store cannot be used: nothing was accepted. */
export function unavailable(problem?: string): Refusal {
  return {
    status: 503,
    body: {
      error: 'hub_unavailable',
      message: problem ? `The hub cannot use its store right now: ${problem}; try again shortly.` : 'The hub cannot reach its store right now; try again shortly.',
    },
    retryAfterSeconds: 30,
  };
}

export function invalidRequest(issues: Extract<HubRequestResult, { ok: false }>['issues']): Refusal {
  return { status: 400, body: { error: 'invalid_request', message: issues.map((i) => i.message).join('; '), issues } };
}

export function callbackRefused(check: { message: string; reason: string }): Refusal {
  return {
    status: 400,
    body: {
      error: 'callback_refused',
      message: `hub.callback refused: ${check.message}`,
      issues: [{ path: ['hub.callback'], message: check.message, code: check.reason }],
    },
  };
}

export function publishNotRecorded(error: unknown, retryInMs: number): Refusal {
  return {
    status: 503,
    body: {
      error: 'publish_not_recorded',
      message: `The hub could not record the change (${describeError(error)}); it retries until its store accepts it, and notifies the subscribers then.`,
    },
    retryAfterSeconds: Math.max(1, Math.ceil(retryInMs / 1000)),
  };
}
