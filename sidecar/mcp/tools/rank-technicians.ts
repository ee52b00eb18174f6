/** `rank_technicians`: the MCP twin of GET /api/technicians/rank, same filters, same core function. */
import { z } from 'zod';
import { rankTechnicians } from '../../../core/search/rank-technicians.ts';
import { RankFiltersShape, TechnicianRankingSchema } from '../../../core/schemas/ranking.ts';
import { defineTool } from '../tool.ts';
import { chooseLocationSpec, LocationArgumentSchema } from './location-argument.ts';
import { resolveNamedArguments } from './resolve-names.ts';

function defineSpec<Filters extends z.ZodRawShape>(filters: Filters, whenToUse: string) {
  return {
    name: 'rank_technicians',
    title: 'Rank technicians',
    description: 'Best technician for a service (`mentions_service`: id, name or alias) or an `aspect`: reviews, mean rating, positive share; ranked by Wilson lower bound, under 5 reviews unranked.',
    whenToUse,
    inputSchema: z.strictObject(filters),
    outputSchema: TechnicianRankingSchema,
  };
}

const { location: _, ...filtersWithoutLocation } = RankFiltersShape;
const WHEN = 'the best technician for a service (mentions_service) or an aspect, small samples unranked';
const WITH_LOCATION = defineSpec({ ...filtersWithoutLocation, location: LocationArgumentSchema }, `${WHEN}; at one location when given.`);
const WITHOUT_LOCATION = defineSpec(filtersWithoutLocation, `${WHEN}.`);

export const rankTechniciansTool = defineTool(
  WITH_LOCATION,
  (args, deps) => {
    const { index } = deps.getLive();
    const result = rankTechnicians(index, resolveNamedArguments(index.business, args));
    return result.ok ? { ok: true, value: result.ranking } : result;
  },
  chooseLocationSpec(WITH_LOCATION, WITHOUT_LOCATION),
);
