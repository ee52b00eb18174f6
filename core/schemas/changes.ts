/**
 * The change log's request and answer (issue 23 item 4): `GET /api/reviews/changes` and the MCP tool
 * `get_changes` read the same parameters and give the same answer (core/dataset/change-log.ts).
 */
import { z } from 'zod';
import { PublishedReviewSchema } from './published.ts';
import { WithdrawReasonSchema } from './content.ts';
import { UpdateChangeSchema } from '../log/entry.ts';

export const CHANGES_LIMIT_DEFAULT = 100;
export const CHANGES_LIMIT_MAX = 1000;

const limitMessage = `must be an integer from 1 to ${CHANGES_LIMIT_MAX}`;

export const ChangesQueryShape = {
  since: z
    .string()
    .max(400)
    .optional()
    .meta({ description: 'The last `next_token`; omit to start.' }),
  limit: z
    .int({ error: limitMessage })
    .min(1, limitMessage)
    .max(CHANGES_LIMIT_MAX, limitMessage)
    .default(CHANGES_LIMIT_DEFAULT),
};

export const ChangesQuerySchema = z.strictObject(ChangesQueryShape);

/** MCP `get_changes` (issue 31 item 7): compact by default, so a page fits an agent's budget (docs/mcp.md). */
export const McpChangesQuerySchema = z.strictObject({
  ...ChangesQueryShape,
  include_reviews: z
    .boolean()
    .default(false)
    .meta({ description: 'true: each review whole.' }),
});

const time = z.iso.datetime().meta({ description: 'When it was published (review log time, never before the review\'s date).' });
const entry = z.int().min(0).meta({ description: 'Its position in the review log (/log/).' });
const review = PublishedReviewSchema.optional().meta({ description: 'The review as /reviews.json holds it now; left out by MCP get_changes unless `include_reviews` is true.' });

export const ChangeSchema = z
  .discriminatedUnion('kind', [
    z.object({ id: z.string(), time, kind: z.literal('added'), entry, review }),
    z.object({
      id: z.string(),
      time,
      kind: z.literal('changed'),
      entry,
      change: UpdateChangeSchema.nullable().meta({ description: 'What kind of change the review log says it is: `reply` (the owner\'s reply), `at_source` (changed where it was first posted), `correction` (the owner\'s own); null for a change logged before the log recorded it.' }),
      previous_rating: z.int().min(1).max(5).nullable().meta({ description: 'The rating this change replaced; null when the rating did not change.' }),
      words_changed: z.boolean().nullable().meta({ description: 'Whether the review\'s words (text, title) changed; null when the log cannot tell.' }),
      review,
    }),
    z
      .object({ id: z.string(), time, kind: z.literal('removed'), entry, reason: WithdrawReasonSchema.meta({ description: 'The owner\'s reason; `other` when none given.' }) })
      .meta({ description: 'A tombstone: removed, or hidden with `verified: false`.' }),
  ])
  .meta({ id: 'Change' });

export const ChangesResultSchema = z
  .object({
    changes: z.array(ChangeSchema).meta({ description: 'Oldest first; one entry per review, its last change.' }),
    count: z.int().min(0).meta({ description: 'Number of changes in this answer.' }),
    limit: z.int().min(1).max(CHANGES_LIMIT_MAX).meta({ description: 'The limit that was applied.' }),
    next_token: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `since` for what follows (the same token when nothing is new); null only for an empty log read from its beginning.' }),
    has_more: z.boolean().meta({ description: 'true: more changes follow right away; ask again with `next_token`.' }),
  })
  .meta({ id: 'Changes' });

export type Change = z.infer<typeof ChangeSchema>;
export type ChangesResult = z.infer<typeof ChangesResultSchema>;
