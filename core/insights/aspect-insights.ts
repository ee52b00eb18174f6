/**
 * Per aspect: review counts by polarity, net score, quarterly trend and representative quotes, each
 * count beside its estimate corrected for the analyser's measured error (aspect-accuracy.ts).
 */
import type { AspectModel } from './aspect-model.ts';
import type { CountCorrector } from './aspect-accuracy.ts';
import type { AnalyzedReview } from './analyzed-review.ts';
import { countPolarity, createCounter, roundTo, toStats } from './figures.ts';
import type { PolarityCounter } from './figures.ts';
import type { AspectInsight } from '../schemas/insights.ts';
import { selectQuotes } from './quotes.ts';

export function computeAspectInsights(
  analyzed: readonly AnalyzedReview[],
  model: AspectModel,
  quarters: readonly string[],
  corrector: CountCorrector,
): AspectInsight[] {
  const reviewsByQuarter = new Map(quarters.map((q) => [q, 0]));
  for (const item of analyzed) reviewsByQuarter.set(item.quarter, (reviewsByQuarter.get(item.quarter) ?? 0) + 1);
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
      estimate: corrector.estimate(aspect.id, total, analyzed.length, `aspect:${aspect.id}`),
      accuracy: corrector.accuracy(aspect.id),
      share_of_reviews: analyzed.length === 0 ? 0 : roundTo(total.mentions / analyzed.length, 4),
      trend: [...(byQuarter[i] ?? [])].map(([quarter, counter]) => {
        const reviews = reviewsByQuarter.get(quarter) ?? 0;
        return { quarter, ...toStats(counter), reviews, estimate: corrector.estimate(aspect.id, counter, reviews, `aspect:${aspect.id}:${quarter}`) };
      }),
      quotes: quotes[i] ?? [],
      filter: { aspect: aspect.id },
    };
  });
}
