/**
 * `get_insights`: the insights dataset (/insights.json) at a size an agent can afford. Without
 * arguments, an overview (every section, each entry reduced to its figures); `section` returns one
 * section, still compact; `aspect`, `technician` or `service` returns that one entry whole (trend,
 * quotes, profile). Every default answer stays under 8 KB on the 480-review demo (tested); the
 * whole document is /insights.json.
 */
import { z } from 'zod';
import type { AspectInsight, EntityInsight, Insights } from '../../../core/schemas/insights.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { defineTool } from '../tool.ts';
import { resolveServiceName, resolveTechnicianName } from './resolve-names.ts';

const SECTIONS = ['summary', 'basis', 'responses', 'aspects', 'entities', 'topics', 'faq'] as const;
type Section = (typeof SECTIONS)[number];

const spec = {
  name: 'get_insights',
  title: 'Get review insights',
  description: [
    'What customers praise and complain about, with reply rates.',
    'No arguments: an overview; `section`: one part; `aspect`, `technician` or `service`: one entry in full.',
  ].join(' '),
  whenToUse: 'a compact overview of aspects, technicians, services, topics, FAQ, owner reply rates and summary; section for one part, aspect/technician/service for one entry in full.',
  inputSchema: z.strictObject({
    section: z.enum(SECTIONS, { error: `must be one of: ${SECTIONS.join(', ')}` }).optional().meta({ description: 'One section only.' }),
    aspect: z.string().min(1).max(100).optional().meta({ description: 'An aspect id: that aspect in full.' }),
    technician: z.string().min(1).max(200).optional().meta({ description: 'A technician name or alias: their profile in full.' }),
    service: z.string().min(1).max(200).optional().meta({ description: 'A service id, name or alias: its profile in full.' }),
  }),
  outputSchema: z.object({
    sections: z.array(z.string()).meta({ description: 'Every section name.' }),
    insights: z.record(z.string(), z.unknown()).meta({ description: 'The requested part, by section name.' }),
    more: z.string().meta({ description: 'How to get more detail.' }),
  }),
};

const OVERVIEW_TOPICS = 10;
const MORE =
  'Aspect counts are what the analyser found; estimate is [value, low, high]: the count corrected for its measured error, with a 95% range (recall: the share of mentions it finds). Pass section for one part (faq answers, every topic), or aspect (an id), technician or service for one entry in full; /insights.json has everything. Quote reviews from search_reviews as evidence.';

export const getInsightsTool = defineTool(spec, (args, deps) => {
    const { section, aspect, technician, service } = args;
    const { insights, index } = deps.getLive();
    const given = [aspect, technician, service].filter((v) => v !== undefined).length;
    if (given > 1 || (given === 1 && section !== undefined)) {
      return { ok: false, issues: [{ path: ['section'], message: 'give at most one of section, aspect, technician, service', code: 'conflicting_arguments' }] };
    }
    const answer = (part: Record<string, unknown>) => ({ ok: true as const, value: { sections: [...SECTIONS], insights: part, more: MORE } });
    if (aspect !== undefined) {
      const found = insights.aspects.find((a) => a.id === aspect.trim().toLowerCase());
      return found ? answer({ aspects: [found] }) : unknown('aspect', aspect, insights.aspects.map((a) => a.id));
    }
    if (technician !== undefined) {
      const name = resolveTechnicianName(index.business, technician);
      const found = insights.entities.technicians.find((t) => t.name === name);
      return found ? answer({ technicians: [found] }) : unknown('technician', technician, insights.entities.technicians.map((t) => t.name));
    }
    if (service !== undefined) {
      const id = resolveServiceName(index.business, service);
      const found = insights.entities.services.find((s) => s.id === id);
      return found ? answer({ services: [found] }) : unknown('service', service, insights.entities.services.map((s) => s.id ?? s.name));
    }
    if (section !== undefined) return answer({ [section]: describeSection(insights, section) });
    // The overview: every section compact, the FAQ as its questions, the ten commonest topics, and the
    // aspects without their neutral and positive estimates (section aspects has them).
    const overview = Object.fromEntries(SECTIONS.map((s) => [s, describeSection(insights, s)]));
    overview.faq = insights.faq.map((f) => ({ id: f.id, question: f.question }));
    overview.aspects = insights.aspects.filter((a) => a.mentions > 0).map(describeAspectBriefly);
    overview.topics = insights.topics.slice(0, OVERVIEW_TOPICS).map((t) => ({ phrase: t.phrase, reviews: t.reviews }));
    return answer(overview);
});

function unknown(name: string, value: string, known: readonly string[]): { ok: false; issues: ErrorIssue[] } {
  return { ok: false, issues: [{ path: [name], message: `no ${name} ${JSON.stringify(value)}; known: ${known.join(', ')}`, code: `unknown_${name}` }] };
}

/** A section reduced to the figures an agent reads first. */
function describeSection(insights: Insights, section: Section): unknown {
  switch (section) {
    case 'summary':
      return { text: insights.summary.text, source: insights.summary.source, stale: insights.summary.stale };
    case 'basis':
      return insights.basis;
    case 'responses':
      return insights.responses;
    case 'aspects':
      return insights.aspects.filter((a) => a.mentions > 0).map(describeAspect);
    case 'entities':
      return {
        technicians: insights.entities.technicians.map(describeEntity),
        services: insights.entities.services.filter((s) => s.reviews > 0).map(describeEntity),
      };
    case 'topics':
      return insights.topics.map((t) => ({ phrase: t.phrase, reviews: t.reviews, net_score: t.net_score }));
    case 'faq':
      return insights.faq.map((f) => ({ id: f.id, question: f.question, answer: f.answer.replace(/ A customer wrote: .*$/, '') }));
  }
}

/** Raw counts, and the corrected ones as [value, low, high] (the 95% range) when there are some. */
function describeAspect({ id, label, mentions, positive, neutral, negative, estimate, accuracy }: AspectInsight) {
  const range = (r: { value: number; low: number; high: number }) => [r.value, r.low, r.high];
  return {
    id,
    label,
    mentions,
    positive,
    neutral,
    negative,
    ...(estimate === null ? {} : { estimate: { mentions: range(estimate.mentions), positive: range(estimate.positive), negative: range(estimate.negative) } }),
    ...(accuracy === null ? {} : { recall: accuracy.detection.recall }),
  };
}

/** The overview's line per aspect: what the analyser found, and the corrected mentions and complaints. */
function describeAspectBriefly({ id, label, mentions, positive, negative, estimate }: AspectInsight) {
  const range = (r: { value: number; low: number; high: number }) => [r.value, r.low, r.high];
  return { id, label, mentions, positive, negative, ...(estimate === null ? {} : { estimate: { mentions: range(estimate.mentions), negative: range(estimate.negative) } }) };
}

function describeEntity({ name, id, reviews, average_rating, strengths, concerns }: EntityInsight) {
  return { name, ...(id === null ? {} : { id }), reviews, average_rating, strengths, concerns };
}
