/** `get_changes`: the MCP twin of GET /api/reviews/changes (core/dataset/read-changes.ts), the same answer. */
import { readChanges } from '../../../core/dataset/read-changes.ts';
import { ChangesResultSchema, McpChangesQuerySchema } from '../../../core/schemas/changes.ts';
import { defineTool } from '../tool.ts';

export const getChangesTool = defineTool(
  {
    name: 'get_changes',
    title: 'Get changes',
    description: 'Reviews added, changed or removed since a `next_token`, oldest first: to keep a copy of /reviews.json.',
    whenToUse: 'reviews added, edited or removed since a token (keeping a copy).',
    inputSchema: McpChangesQuerySchema,
    outputSchema: ChangesResultSchema,
  },
  (args, deps) => {
    const outcome = readChanges(deps.getLive(), args);
    return outcome.ok ? { ok: true, value: outcome.result } : { ok: false, issues: outcome.issues };
  },
);
