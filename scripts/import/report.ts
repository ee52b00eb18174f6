/** What an import prints: skipped reviews (or jobs) with where and why, changes, and the closing summary. */
import { describeOrigin, type Change } from './merge.ts';
import type { Skip, SkipReason } from './record.ts';

const REASONS: Record<SkipReason, string> = {
  invalid: 'invalid',
  'no-text': 'rating without text',
  'not-completed': 'not completed',
  duplicate: 'listed twice',
};

export function formatSkip(skip: Skip): string {
  const field = skip.field === undefined ? '' : `, field ${skip.field}`;
  return `skipped ${describeOrigin(skip.origin)}${field}: ${skip.message}`;
}

export function formatChange(change: Change, folder: 'reviews' | 'jobs' = 'reviews'): string {
  const file = `${folder}/${change.file}`;
  if (change.kind === 'added') return `+ ${change.id}  added to ${file}`;
  if (change.kind === 'removed') return `- ${change.id}  removed from ${file} (no longer in the export)`;
  return `~ ${change.id}  ${change.fields.join(', ')} changed in ${file}`;
}

export type Summary = {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: readonly Skip[];
  /** `written`, `dry-run` (--dry-run), or `refused` (a failure, --strict). */
  outcome: 'written' | 'dry-run' | 'refused';
};

const HEADS: Record<Summary['outcome'], string> = {
  written: 'Summary',
  'dry-run': 'Summary (dry run, nothing written)',
  refused: 'Summary (refused, nothing written)',
};

/** `Summary: 3 added, 1 updated, 40 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.` */
export function formatSummary(s: Summary): string {
  const reasons = (Object.keys(REASONS) as SkipReason[])
    .map((reason) => [REASONS[reason], s.skipped.filter((k) => k.reason === reason).length] as const)
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${n} ${label}`);
  const skipped = `${s.skipped.length} skipped${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}`;
  return `${HEADS[s.outcome]}: ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${skipped}, ${s.removed} removed.`;
}
