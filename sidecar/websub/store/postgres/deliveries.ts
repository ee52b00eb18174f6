/**
 * The PostgreSQL store's pending deliveries (../hub-store.ts says what each does). Claims use
 * `FOR UPDATE SKIP LOCKED` plus a claim token and deadline: two instances never claim the same delivery,
 * and a delivery claimed by an instance that died is taken over once its claim deadline passes.
 */
import type { CompleteOutcome, HubStore } from '../hub-store.ts';
import type { PostgresAccess } from './access.ts';
import { toClaim, toPending, toSubscription } from '../rows.ts';

type DeliveryMethods = Pick<
  HubStore,
  'claimDueDeliveries' | 'completeDelivery' | 'completeDeliveries' | 'failDelivery' | 'releaseDelivery' | 'listPendingDeliveries' | 'countBacklog'
>;

/** `s`: the quoted schema name. */
export function postgresDeliveries({ pool, query, transaction }: PostgresAccess, s: string): DeliveryMethods {
  return {
    async claimDueDeliveries({ now, limit, claimToken, claimUntil }) {
      const rows = await query(
        // Domains take turns (numbered when the change was recorded): the index on (turn, next_attempt_at)
        // is read in order up to the limit, skipping rows another instance holds.
        `WITH due AS (
           SELECT d.subscription_id FROM ${s}.deliveries d JOIN ${s}.subscriptions sub ON sub.id = d.subscription_id
           WHERE d.next_attempt_at <= $1 AND (d.claimed_until IS NULL OR d.claimed_until <= $1) AND sub.expires_at > $1
           ORDER BY d.turn, d.next_attempt_at LIMIT $2
           FOR UPDATE OF d SKIP LOCKED)
         UPDATE ${s}.deliveries d SET claim_token = $3, claimed_until = $4
         FROM due, ${s}.subscriptions sub
         WHERE d.subscription_id = due.subscription_id AND sub.id = d.subscription_id
         RETURNING d.subscription_id, d.topic, d.hash, d.attempts, d.next_attempt_at, sub.callback, sub.secret`,
        [now, limit, claimToken, claimUntil],
      );
      return rows
        .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at))
        .map((r) => toClaim(r, claimToken));
    },
    async completeDelivery(claim, deliveredHash, now) {
      const deleted = await pool.query(
        `DELETE FROM ${s}.deliveries WHERE subscription_id = $1 AND claim_token = $2 AND hash = $3`,
        [claim.subscriptionId, claim.claimToken, deliveredHash],
      );
      if ((deleted.rowCount ?? 0) > 0) return 'done';
      const kept = await pool.query(
        `UPDATE ${s}.deliveries SET attempts = 0, next_attempt_at = $1, claim_token = NULL, claimed_until = NULL
         WHERE subscription_id = $2 AND claim_token = $3`,
        [now, claim.subscriptionId, claim.claimToken],
      );
      return (kept.rowCount ?? 0) > 0 ? 'newer-pending' : 'lost-claim';
    },
    async completeDeliveries(delivered, now) {
      if (delivered.length === 0) return [];
      // One statement for the batch: the rows whose delivered hash is still pending are done; the
      // others (a newer change arrived meanwhile) stay pending, due now with attempts reset.
      const rows = await query(
        `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS i (subscription_id, claim_token, hash)),
         done AS (
           DELETE FROM ${s}.deliveries d USING input i
           WHERE d.subscription_id = i.subscription_id AND d.claim_token = i.claim_token AND d.hash = i.hash
           RETURNING d.subscription_id),
         kept AS (
           UPDATE ${s}.deliveries d SET attempts = 0, next_attempt_at = $4, claim_token = NULL, claimed_until = NULL
           FROM input i
           WHERE d.subscription_id = i.subscription_id AND d.claim_token = i.claim_token AND d.hash <> i.hash
           RETURNING d.subscription_id)
         SELECT subscription_id, 'done' AS outcome FROM done UNION ALL SELECT subscription_id, 'newer-pending' FROM kept`,
        [delivered.map((d) => d.claim.subscriptionId), delivered.map((d) => d.claim.claimToken), delivered.map((d) => d.hash), now],
      );
      const outcomes = new Map(rows.map((r) => [String(r.subscription_id), r.outcome as CompleteOutcome]));
      return delivered.map((d) => outcomes.get(d.claim.subscriptionId) ?? 'lost-claim');
    },
    async failDelivery(claim, { nextAttemptAt, maxAttempts }) {
      return transaction(async (c) => {
        const [row] = await query(
          `UPDATE ${s}.deliveries SET attempts = attempts + 1, next_attempt_at = $1, claim_token = NULL, claimed_until = NULL
           WHERE subscription_id = $2 AND claim_token = $3 RETURNING attempts`,
          [nextAttemptAt, claim.subscriptionId, claim.claimToken],
          c,
        );
        if (!row) return { outcome: 'lost-claim' as const };
        const attempts = Number(row.attempts);
        if (attempts < maxAttempts) return { outcome: 'retry' as const, attempts };
        const [removed] = await query(`DELETE FROM ${s}.subscriptions WHERE id = $1 RETURNING *`, [claim.subscriptionId], c);
        return { outcome: 'removed' as const, subscription: toSubscription(removed!) };
      });
    },
    async releaseDelivery(claim) {
      await pool.query(
        `UPDATE ${s}.deliveries SET claim_token = NULL, claimed_until = NULL WHERE subscription_id = $1 AND claim_token = $2`,
        [claim.subscriptionId, claim.claimToken],
      );
    },
    async listPendingDeliveries() {
      const rows = await query(
        `SELECT d.*, sub.callback FROM ${s}.deliveries d JOIN ${s}.subscriptions sub ON sub.id = d.subscription_id
         ORDER BY d.next_attempt_at, d.subscription_id`,
      );
      return rows.map(toPending);
    },
    async countBacklog() {
      const [row] = await query(
        `SELECT (SELECT count(*) FROM ${s}.subscriptions) AS subscriptions, (SELECT count(*) FROM ${s}.deliveries) AS pending,
                (SELECT count(*) FROM ${s}.deliveries WHERE attempts > 0) AS failing`,
      );
      return { subscriptions: Number(row!.subscriptions), pending: Number(row!.pending), failing: Number(row!.failing) };
    },
  };
}
