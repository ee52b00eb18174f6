/** `get_changes`: the MCP twin of GET /api/reviews/changes (core/dataset/read-changes.ts), the same answer. */
import { readChanges } from '../../../core/dataset/read-changes.ts';
import { ChangesResultSchema, McpChangesQuerySchema } from '../../../core/schemas/changes.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { IsoDateSchema } from '../../../core/schemas/content.ts';
import { defineSelfCheckingTool, defineTool } from '../tool.ts';

const changes = defineTool(
  {
    name: 'get_changes',
    title: 'Get changes',
    description: 'Reviews added, changed or removed since a `next_token`, oldest first: to keep a copy of /reviews.json. Reviews since a date: get_reviews_since.',
    whenToUse: 'reviews added, edited or removed since a token (keeping a copy).',
    inputSchema: McpChangesQuerySchema,
    outputSchema: ChangesResultSchema,
  },
  (args, deps) => {
    const outcome = readChanges(deps.getLive(), args);
    return outcome.ok ? { ok: true, value: outcome.result } : { ok: false, issues: outcome.issues };
  },
);

/**
 * An agent that wants "what is new since June" often gives get_changes a date, as `since` or as
 * `date`: the answer then says which tool takes a date, instead of only that the token is invalid.
 */
export const getChangesTool = defineSelfCheckingTool(changes.spec, (args, deps) => {
  const dates = (['since', 'date'] as const).filter((name) => typeof args[name] === 'string' && IsoDateSchema.safeParse(args[name]).success);
  if (dates.length === 0) return changes.call(args, deps);
  const issues: ErrorIssue[] = dates.map((name) => ({
    path: [name],
    message: `is a date; get_changes takes \`since\`: the next_token of its last answer (omit it to start). For reviews dated on or after ${String(args[name])}, call get_reviews_since with { "date": "${String(args[name])}" }.`,
    code: 'use_get_reviews_since',
  }));
  return { ok: false, issues };
});
