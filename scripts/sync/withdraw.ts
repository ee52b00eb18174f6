/**
 * The reason a sync gives for the reviews it withdraws: `removed_at_source` in the content folder's
 * `withdrawn.json` (core/schemas/content.ts), which the review log records when the review leaves.
 * Written before the reviews are swapped: listing a review there does not hide it, so a sync stopped in
 * between leaves the reviews as they were and the reason ready. A reason the owner gave is kept.
 */
import { replaceFile } from '../../core/atomic-file-fs.ts';
import path from 'node:path';
import { readWithdrawnReasons, WITHDRAWN_FILE } from '../../core/content/read-withdrawn.ts';
import { formatContentProblem } from '../../core/content/problems.ts';
import { compareText } from '../../core/text/text-rules.ts';

export async function recordWithdrawals(contentDir: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const current = await readWithdrawnReasons(contentDir);
  if (!current.ok) throw new Error(`${current.problems.map(formatContentProblem).join('; ')}: fix it before a --full sync withdraws reviews`);
  const reasons = new Map(current.value);
  for (const id of ids) if (!reasons.has(id)) reasons.set(id, 'removed_at_source');
  const file = path.join(contentDir, WITHDRAWN_FILE);
  const sorted = Object.fromEntries([...reasons].sort(([a], [b]) => compareText(a, b)));
  await replaceFile(file, `${JSON.stringify(sorted, null, 2)}\n`);
}
