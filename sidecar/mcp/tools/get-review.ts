/** `get_review`: one review by its id, with the review log entry an agent can cite for it. */
import { z } from 'zod';
import type { ChangeLog } from '../../../core/dataset/change-log.ts';
import { PublishedReviewSchema } from '../../../core/schemas/published.ts';
import { PATHS } from '../../../core/urls.ts';
import { defineTool } from '../tool.ts';


/** Each review's latest entry in the review log, by id, computed once per build. */
const entryIndexes = new WeakMap<ChangeLog, ReadonlyMap<string, number>>();
function latestEntryOf(log: ChangeLog, id: string): number | undefined {
  // A build without a review log (`checks` empty) has positions that are not log entries.
  if (log.checks === '') return undefined;
  let byId = entryIndexes.get(log);
  if (byId === undefined) entryIndexes.set(log, (byId = new Map(log.entries.map((e) => [e.id, e.index]))));
  return byId.get(id);
}

export const getReviewTool = defineTool(
  {
    name: 'get_review',
    title: 'Get a review',
    description:
      'One review by `id` in full: reply, page URL, aspect evidence, log_entry. Also the resource reviews://reviews/{id}.',
    whenToUse: 'one review by id.',
    inputSchema: z.strictObject({
      id: z.string().min(1, 'must not be empty').max(200).meta({ description: 'Review id, e.g. `2024-06-smith-ac`.' }),
    }),
    // `log_entry` ({ index, checkpoint_url, proof_url }) is left out of the schema: tools/list has no bytes to spare for
    // it (tests/mcp/budgets.test.ts); docs/mcp.md describes it.
    outputSchema: z.object({ review: PublishedReviewSchema }),
  },
  (args, deps) => {
    const live = deps.getLive();
    const review = live.byId.get(args.id);
    if (review === undefined) return { ok: false, issues: [{ path: ['id'], message: 'no published review has this id', code: 'unknown_review' }] };
    const index = latestEntryOf(live.changes, review.id);
    return { ok: true, value: { review, ...(index === undefined ? {} : { log_entry: { index, checkpoint_url: live.urls.absolute(PATHS.logCheckpoint), proof_url: live.urls.logProof(review.id) } }) } };
  },
);
