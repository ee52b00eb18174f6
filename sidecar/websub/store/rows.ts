/** Row ↔ object mapping shared by the SQLite and PostgreSQL stores (same column names in both). */
import type { ClaimedDelivery, PendingDelivery, Subscription, TopicSnapshot } from './hub-store.ts';

export type Row = Record<string, unknown>;

const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

export function toSubscription(r: Row): Subscription {
  return {
    id: String(r.id),
    topic: String(r.topic),
    callback: String(r.callback),
    secret: textOrNull(r.secret),
    leaseSeconds: Number(r.lease_seconds),
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toSnapshot(r: Row): TopicSnapshot {
  // node:sqlite returns BLOBs as Uint8Array, pg returns BYTEA as Buffer.
  const body = r.body as Uint8Array;
  return {
    topic: String(r.topic),
    hash: String(r.hash),
    contentType: String(r.content_type),
    body: Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  };
}

export function toClaim(r: Row, claimToken: string): ClaimedDelivery {
  return {
    subscriptionId: String(r.subscription_id),
    topic: String(r.topic),
    callback: String(r.callback),
    secret: textOrNull(r.secret),
    hash: String(r.hash),
    attempts: Number(r.attempts),
    claimToken,
  };
}

export function toPending(r: Row): PendingDelivery {
  return {
    subscriptionId: String(r.subscription_id),
    topic: String(r.topic),
    callback: String(r.callback),
    hash: String(r.hash),
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    claimed: r.claim_token !== null && r.claim_token !== undefined,
  };
}
