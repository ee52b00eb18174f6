/**
 * Delivery outcomes on their way to the store. An outcome the store cannot record (PostgreSQL cut, a full
 * disk) is kept in memory and written, in order, as soon as the store answers again, so a blip delays
 * deliveries by about the blip rather than by the claim deadline meant for dead instances, and no
 * subscriber gets a delivery twice because of it. 2xx answers are written together, once per turn of
 * the event loop: one transaction for all the deliveries that finished in it (the fan-out's main cost on
 * SQLite).
 */
import type { ClaimedDelivery, HubStore } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';

export type DeliveryOutcomes = {
  /** Records an outcome now, or keeps it for when the store answers again. */
  record(write: () => Promise<unknown>): Promise<void>;
  /** A 2xx for `hash`: written with the others of this turn; resolves once the batch is written (or kept). */
  complete(claim: ClaimedDelivery, hash: string): Promise<void>;
  /** Writes kept outcomes in order; rejects at the first that still fails (the store is still away). */
  applyKept(): Promise<void>;
  /** Outcomes kept in memory now. */
  keptCount(): number;
};

export function createDeliveryOutcomes(deps: { store: HubStore; now: () => number; log: Logger; onStoreError?: (error: unknown) => void }): DeliveryOutcomes {
  const { store, log } = deps;
  /** Outcomes not yet written (the store failed), oldest first. */
  let kept: (() => Promise<unknown>)[] = [];
  let completions: { claim: ClaimedDelivery; hash: string }[] = [];
  let completionsWritten: Promise<void> | undefined;

  async function record(write: () => Promise<unknown>): Promise<void> {
    if (kept.length > 0) {
      kept.push(write);
      return;
    }
    try {
      await write();
    } catch (err) {
      deps.onStoreError?.(err);
      kept.push(write);
      log.warn('websub_outcomes_kept', { count: kept.length, error: String(err) });
    }
  }

  return {
    record,
    complete(claim, hash) {
      completions.push({ claim, hash });
      completionsWritten ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        const batch = completions;
        completions = [];
        completionsWritten = undefined;
        const at = deps.now();
        return record(() => store.completeDeliveries(batch, at));
      });
      return completionsWritten;
    },
    async applyKept() {
      if (kept.length === 0) return;
      const waiting = kept;
      kept = [];
      let applied = 0;
      for (const [i, write] of waiting.entries()) {
        try {
          await write();
          applied += 1;
        } catch (err) {
          kept = [...waiting.slice(i), ...kept];
          throw err;
        }
      }
      log.info('websub_outcomes_applied', { count: applied });
    },
    keptCount: () => kept.length,
  };
}
