/** `get_review`: one review by its id. */
import { z } from 'zod';
import { PublishedReviewSchema } from '../../../core/schemas/published.ts';
import type { McpServerDeps } from '../deps.ts';
import { parseArguments, type ToolRegistry, type ToolSpec } from '../tool.ts';

export const getReviewTool = {
  name: 'get_review',
  title: 'Get a review',
  description:
    'One review by `id`, in full: owner reply, page URL and the evidence offsets of its aspects. Also the resource reviews://reviews/{id}.',
  inputSchema: z.strictObject({
    id: z.string().min(1, 'must not be empty').max(200).meta({ description: 'Review id, e.g. `2024-06-smith-ac`.' }),
  }),
  outputSchema: z.object({ review: PublishedReviewSchema }),
} satisfies ToolSpec;

export function registerGetReviewTool(tools: ToolRegistry, deps: McpServerDeps): void {
  tools.register(getReviewTool, (args) => {
    const parsed = parseArguments(getReviewTool.inputSchema, args);
    if (!parsed.ok) return parsed;
    const review = deps.getLive().byId.get(parsed.value.id);
    return review === undefined
      ? { ok: false, issues: [{ path: ['id'], message: 'no published review has this id' }] }
      : { ok: true, value: { review } };
  });
}
