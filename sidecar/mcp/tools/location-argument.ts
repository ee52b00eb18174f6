/**
 * The `location` argument of the tools that filter (issue 43): `search_reviews`, `get_reviews_since`,
 * `rank_technicians`, `get_rating_summary`. It is listed only for a business with locations
 * (ToolDefinition.specFor), so a business without them keeps its tools/list byte for byte, within its
 * budget; each tool judges the argument either way, and an unknown id names the known ones.
 */
import { z } from 'zod';
import type { LiveData } from '../../../core/dataset/live-data.ts';
import type { ToolSpec } from '../tool.ts';

/**
 * The argument of get_reviews_since, rank_technicians and get_rating_summary: a string, judged by the
 * search's own judge (resolveSearchQuery: not empty, at most 200 characters, a location id of business.json),
 * so its JSON Schema spends no bytes on bounds. search_reviews lists SearchFiltersShape's, with its own
 * longer description: its whole input is the search's.
 */
export const LocationArgumentSchema = z.string().optional().meta({ description: 'Location id; only its reviews.' });

/** The spec to list: `withLocation` for a business with locations, else `withoutLocation`. */
export function chooseLocationSpec(withLocation: ToolSpec, withoutLocation: ToolSpec): (live: LiveData) => ToolSpec {
  return (live) => (live.dataset.business.locations === undefined ? withoutLocation : withLocation);
}
