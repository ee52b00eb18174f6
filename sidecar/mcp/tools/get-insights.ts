/** `get_insights`: the insights dataset (/insights.json), whole or one top-level section. */
import { z } from 'zod';
import type { Insights } from '../../../core/schemas/insights.ts';
import { defineTool } from '../tool.ts';

export const getInsightsTool = defineTool(
  {
    name: 'get_insights',
    title: 'Get review insights',
    description: [
      'Aspect-based sentiment analysis derived from the reviews: aspects, entities (technicians, services,',
      'service areas), topics, FAQ and an editorial summary. Pass `section` to get one part only (smaller);',
      'the answer always lists the available section names. Quote reviews (search_reviews) as evidence.',
    ].join(' '),
    whenToUse: 'aspects, entities, topics, FAQ and summary; pass section to get one part.',
    inputSchema: z.strictObject({
      section: z
        .string()
        .min(1, 'must not be empty')
        .max(100)
        .optional()
        .meta({ description: 'One top-level section name, e.g. `summary`; omit for every section.' }),
    }),
    outputSchema: z.object({
      sections: z.array(z.string()).meta({ description: 'Every section name available.' }),
      insights: z.record(z.string(), z.unknown()).meta({ description: 'The requested section, or all of them, by name.' }),
    }),
  },
  (args, deps) => {
    const { insights } = deps.getLive();
    const sections = Object.keys(insights);
    const { section } = args;
    if (section === undefined) return { ok: true, value: { sections, insights } };
    if (!isSection(insights, section)) {
      const valid = sections.length === 0 ? 'no insights are published yet' : `must be one of: ${sections.join(', ')}`;
      return { ok: false, issues: [{ path: ['section'], message: valid, code: 'unknown_section' }] };
    }
    return { ok: true, value: { sections, insights: { [section]: insights[section] } } };
  },
);

function isSection(insights: Insights, name: string): name is keyof Insights {
  return Object.hasOwn(insights, name);
}
