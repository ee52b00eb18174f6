/** `rank_technicians`: the MCP twin of GET /api/technicians/rank, same filters, same core function. */
import { z } from 'zod';
import { rankTechnicians } from '../../../core/search/rank-technicians.ts';
import { RankFiltersShape, TechnicianRankingSchema } from '../../../core/schemas/ranking.ts';
import type { McpServerDeps } from '../deps.ts';
import { parseArguments, type ToolRegistry, type ToolSpec } from '../tool.ts';

export const rankTechniciansTool = {
  name: 'rank_technicians',
  title: 'Rank technicians',
  description: [
    'Best technician for a service (`mentions_service`) or an aspect (`aspect`): per technician, reviews, mean',
    'rating and positive share, ranked by its Wilson lower bound; under 5 reviews listed unranked.',
  ].join(' '),
  inputSchema: z.strictObject(RankFiltersShape),
  outputSchema: TechnicianRankingSchema,
} satisfies ToolSpec;

export function registerRankTechniciansTool(tools: ToolRegistry, deps: McpServerDeps): void {
  tools.register(rankTechniciansTool, (args) => {
    const parsed = parseArguments(rankTechniciansTool.inputSchema, args);
    if (!parsed.ok) return parsed;
    const result = rankTechnicians(deps.getLive().index, parsed.value);
    return result.ok ? { ok: true, value: result.ranking } : result;
  });
}
