/** The SQLite store's pending deliveries: claims, outcomes and counts (../hub-store.ts says what each does). */
import type { ClaimedDelivery, CompleteOutcome, HubStore } from '../hub-store.ts';
import type { SqliteAccess } from './access.ts';
import { toClaim, toPending, toSubscription } from '../rows.ts';

type DeliveryMethods = Pick<
  HubStore,
  'claimDueDeliveries' | 'completeDelivery' | 'completeDeliveries' | 'failDelivery' | 'releaseDelivery' | 'listPendingDeliveries' | 'countBacklog'
>;

export function sqliteDeliveries({ transaction, get, write, all, run }: SqliteAccess): DeliveryMethods {
  const completeOne = (claim: ClaimedDelivery, deliveredHash: string, now: number): CompleteOutcome => {
    if (run('DELETE FROM deliveries WHERE subscription_id = ? AND claim_token = ? AND hash = ?', claim.subscriptionId, claim.claimToken, deliveredHash) > 0) {
      return 'done';
    }
    const kept = run(
      `UPDATE deliveries SET attempts = 0, next_attempt_at = ?, claim_token = NULL, claimed_until = NULL
       WHERE subscription_id = ? AND claim_token = ?`,
      now, claim.subscriptionId, claim.claimToken,
    );
    return kept > 0 ? 'newer-pending' : 'lost-claim';
  };

  return {
    async claimDueDeliveries({ now, limit, claimToken, claimUntil }) {
      const rows = transaction(() => {
        // Walks deliveries_turn in order and stops at `limit` (no ranking of everything pending), then
        // claims those rows by their key: nothing scans the table.
        const due = all(
          `SELECT d.subscription_id, d.topic, d.hash, d.attempts, s.callback, s.secret
           FROM deliveries d INDEXED BY deliveries_turn JOIN subscriptions s ON s.id = d.subscription_id
           WHERE d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?) AND s.expires_at > ?
           ORDER BY d.turn, d.next_attempt_at LIMIT ?`,
          now, now, now, limit,
        );
        for (const row of due) run('UPDATE deliveries SET claim_token = ?, claimed_until = ? WHERE subscription_id = ?', claimToken, claimUntil, String(row.subscription_id));
        return due;
      });
      return rows.map((r) => toClaim(r, claimToken));
    },
    async completeDelivery(claim, deliveredHash, now) {
      return transaction(() => completeOne(claim, deliveredHash, now));
    },
    async completeDeliveries(delivered, now) {
      return delivered.length === 0 ? [] : transaction(() => delivered.map(({ claim, hash }) => completeOne(claim, hash, now)));
    },
    async failDelivery(claim, { nextAttemptAt, maxAttempts }) {
      return transaction(() => {
        const row = write(
          `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ?, claim_token = NULL, claimed_until = NULL
           WHERE subscription_id = ? AND claim_token = ? RETURNING attempts`,
          nextAttemptAt, claim.subscriptionId, claim.claimToken,
        );
        if (!row) return { outcome: 'lost-claim' as const };
        const attempts = Number(row.attempts);
        if (attempts < maxAttempts) return { outcome: 'retry' as const, attempts };
        const removed = write('DELETE FROM subscriptions WHERE id = ? RETURNING *', claim.subscriptionId);
        return { outcome: 'removed' as const, subscription: toSubscription(removed!) };
      });
    },
    async releaseDelivery(claim) {
      run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL WHERE subscription_id = ? AND claim_token = ?', claim.subscriptionId, claim.claimToken);
    },
    async listPendingDeliveries() {
      return all(
        `SELECT d.*, s.callback FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
         ORDER BY d.next_attempt_at, d.subscription_id`,
      ).map(toPending);
    },
    async countBacklog() {
      const row = get(
        `SELECT (SELECT count(*) FROM subscriptions) AS subscriptions, (SELECT count(*) FROM deliveries) AS pending,
                (SELECT count(*) FROM deliveries WHERE attempts > 0) AS failing`,
      )!;
      return { subscriptions: Number(row.subscriptions), pending: Number(row.pending), failing: Number(row.failing) };
    },
  };
}
