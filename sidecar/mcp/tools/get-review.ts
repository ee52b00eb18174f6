/** `get_review`: one review by its id, with the review log entry an agent can cite for it. */
import { z } from 'zod';
import { logEntryLookupOf } from '../../../core/dataset/review-log-entry.ts';
import { PublishedReviewSchema } from '../../../core/schemas/published.ts';
import { defineTool } from '../tool.ts';

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
    // `log_entry` ({ index, checkpoint_url, proof_url }), and the review's `language` and `translation`, are left out of
    // the schema: tools/list has no bytes to spare for them (tests/mcp/budgets.test.ts); docs/mcp.md describes them.
    outputSchema: z.object({ review: PublishedReviewSchema.omit({ language: true, translation: true }).meta({ id: 'McpReview' }) }),
  },
  (args, deps) => {
    const live = deps.getLive();
    const review = live.byId.get(args.id);
    if (review === undefined) return { ok: false, issues: [{ path: ['id'], message: 'no published review has this id', code: 'unknown_review' }] };
    const logEntry = logEntryLookupOf(live)(review.id);
    return { ok: true, value: { review, ...(logEntry === undefined ? {} : { log_entry: logEntry }) } };
  },
);
