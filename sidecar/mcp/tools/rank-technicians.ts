/** `rank_technicians`: the MCP twin of GET /api/technicians/rank, same filters, same core function. */
import { z } from 'zod';
import { rankTechnicians } from '../../../core/search/rank-technicians.ts';
import { RankFiltersShape, TechnicianRankingSchema } from '../../../core/schemas/ranking.ts';
import { defineTool } from '../tool.ts';
import { resolveNamedArguments } from './resolve-names.ts';

export const rankTechniciansTool = defineTool(
  {
    name: 'rank_technicians',
    title: 'Rank technicians',
    description: 'Best technician for a service (`mentions_service`: id, name or alias) or an `aspect`: reviews, mean rating, positive share; ranked by Wilson lower bound, under 5 reviews unranked.',
    whenToUse: 'the best technician for a service (mentions_service) or an aspect, small samples unranked.',
    inputSchema: z.strictObject(RankFiltersShape),
    outputSchema: TechnicianRankingSchema,
  },
  (args, deps) => {
    const { index } = deps.getLive();
    const result = rankTechnicians(index, resolveNamedArguments(index.business, args));
    return result.ok ? { ok: true, value: result.ranking } : result;
  },
);
