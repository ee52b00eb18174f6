/** `get_review`: one review by its id. */
import { z } from 'zod';
import { PublishedReviewSchema } from '../../../core/schemas/published.ts';
import { defineTool } from '../tool.ts';

export const getReviewTool = defineTool(
  {
    name: 'get_review',
    title: 'Get a review',
    description:
      'One review by `id` in full: reply, page URL, aspect evidence. Also the resource reviews://reviews/{id}.',
    whenToUse: 'one review by id.',
    inputSchema: z.strictObject({
      id: z.string().min(1, 'must not be empty').max(200).meta({ description: 'Review id, e.g. `2024-06-smith-ac`.' }),
    }),
    outputSchema: z.object({ review: PublishedReviewSchema }),
  },
  (args, deps) => {
    const review = deps.getLive().byId.get(args.id);
    return review === undefined
      ? { ok: false, issues: [{ path: ['id'], message: 'no published review has this id', code: 'unknown_review' }] }
      : { ok: true, value: { review } };
  },
);
