/** Per aspect: review counts by polarity, net score, quarterly trend and representative quotes. */
import type { AspectModel } from './aspect-model.ts';
import type { AnalyzedReview } from './analyzed-review.ts';
import { countPolarity, createCounter, roundTo, toStats } from './figures.ts';
import type { PolarityCounter } from './figures.ts';
import type { AspectInsight } from '../schemas/insights.ts';
import { selectQuotes } from './quotes.ts';

export function computeAspectInsights(
  analyzed: readonly AnalyzedReview[],
  model: AspectModel,
  quarters: readonly string[],
): AspectInsight[] {
  const totals = model.aspects.map(() => createCounter());
  const byQuarter = model.aspects.map(() => new Map<string, PolarityCounter>(quarters.map((q) => [q, createCounter()])));
  for (const item of analyzed) {
    for (const [aspect, polarity] of item.polarities) {
      const total = totals[aspect];
      if (total === undefined) continue;
      countPolarity(total, polarity);
      const quarter = byQuarter[aspect]?.get(item.quarter);
      if (quarter !== undefined) countPolarity(quarter, polarity);
    }
  }
  const quotes = selectQuotes(analyzed, model);
  return model.aspects.map((aspect, i) => {
    const total = totals[i] ?? createCounter();
    return {
      id: aspect.id,
      label: aspect.label,
      description: aspect.description,
      ...toStats(total),
      share_of_reviews: analyzed.length === 0 ? 0 : roundTo(total.mentions / analyzed.length, 4),
      trend: [...(byQuarter[i] ?? [])].map(([quarter, counter]) => ({ quarter, ...toStats(counter) })),
      quotes: quotes[i] ?? [],
      filter: { aspect: aspect.id },
    };
  });
}
