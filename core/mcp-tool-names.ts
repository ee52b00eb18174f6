/**
 * The MCP server's tools by name. The developer page and llms.txt name them from here;
 * tests/mcp/client.test.ts checks that the server registers exactly these (sidecar/mcp/tools/).
 */
import { joinList } from './text/text-rules.ts';

export const MCP_TOOL_NAMES = [
  'get_business',
  'search_reviews',
  'get_review',
  'get_reviews_since',
  'get_changes',
  'get_rating_summary',
  'get_insights',
  'rank_technicians',
] as const;

/** `a, b and c`, in English, for llms.txt (the developer pages list them in the site's language). */
export function listMcpToolNames(): string {
  return joinList(MCP_TOOL_NAMES);
}
