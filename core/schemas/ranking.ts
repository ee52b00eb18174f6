/** The shape of a technician ranking (GET /api/technicians/rank and the MCP tool rank_technicians). */
import { z } from 'zod';
import { SearchFilterSchema } from './insights.ts';
import { SearchFiltersShape } from './search.ts';

/** The filters a ranking takes: the search's own names, so a ranking's reviews are a search's. */
export const RankFiltersShape = {
  mentions_service: SearchFiltersShape.mentions_service,
  aspect: SearchFiltersShape.aspect,
  since: SearchFiltersShape.since,
  until: SearchFiltersShape.until,
  location: SearchFiltersShape.location,
};

export const TechnicianRankSchema = z.object({
  technician: z.string(),
  rank: z.int().min(1).nullable().meta({ description: '1 for the best; null when too few reviews to rank (small_sample).' }),
  reviews: z.int().min(0).meta({ description: 'Matching reviews that mention the technician.' }),
  mean_rating: z.number().meta({ description: 'Mean star rating of those reviews, 2 decimals.' }),
  positive: z.int().min(0).meta({ description: 'Of those, positive ones: positive on `aspect`, or rated 4–5 without it.' }),
  positive_share: z.number().min(0).max(1).meta({ description: 'positive / reviews, 3 decimals.' }),
  small_sample: z.boolean().meta({ description: 'True below 5 reviews: listed, not ranked.' }),
  filter: SearchFilterSchema,
});

export const TechnicianRankingSchema = z
  .object({
    filters: z.record(z.string(), z.string()).meta({ description: 'The filters applied, resolved (canonical service and aspect ids).' }),
    positive_means: z.enum(['positive_on_aspect', 'rated_4_or_5']),
    reviews: z.int().min(0).meta({ description: 'Matching reviews; those naming no technician count for none.' }),
    technicians: z.array(TechnicianRankSchema).meta({
      description:
        'Ranked by the Wilson lower bound (95%) of positive_share, then mean_rating; technicians with fewer than 5 matching reviews follow, unranked.',
    }),
  })
  .meta({ id: 'TechnicianRanking', description: 'Technicians compared on the reviews of one service, one aspect or both.' });

export type TechnicianRanking = z.infer<typeof TechnicianRankingSchema>;
