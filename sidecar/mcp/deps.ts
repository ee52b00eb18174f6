import type { LiveData } from '../../core/dataset/live-data.ts';

/** What the MCP server answers from. `getLive` is called per request: a publish swaps in new data. */
export type McpServerDeps = { getLive: () => LiveData };
