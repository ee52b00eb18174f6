/**
 * The learned layer of the analyzer: two logistic regressions stacked on the lexicon rules and the
 * star rating, trained on the train split of the realistic corpus by `npm run train`
 * (scripts/train-insights.ts) and shipped as learned-weights.json.
 *
 * - Detection, one binary model per aspect: does the review judge this aspect? Features: the review's
 *   words, word pairs and cues (review-features.ts), what the rules found for the aspect, the stars.
 * - Polarity, one three-class model shared by the aspects: positive, neutral or negative? Features:
 *   the words of the sentences that carry the aspect, the rules' verdict, the stars, the aspect.
 *
 * An aspect without learned weights (one an owner added to content/aspects.json) keeps the rules'
 * answer. Feature names are built here only, so training and analysis cannot drift apart.
 */
import { z } from 'zod';
import type { Polarity } from '../schemas/aspects.ts';
import type { FeatureSpans } from './review-features.ts';

const WeightsSchema = z.record(z.string(), z.number());

export const LearnedWeightsSchema = z.strictObject({
  $comment: z.string(),
  detection_threshold: z.number(),
  detection: z.record(z.string(), z.strictObject({ bias: z.number(), weights: WeightsSchema })),
  polarity: z.strictObject({
    bias: z.tuple([z.number(), z.number(), z.number()]),
    weights: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])),
  }),
});

export type LearnedWeights = z.infer<typeof LearnedWeightsSchema>;

/** Class order of the polarity model's outputs. */
export const LEARNED_CLASSES: readonly Polarity[] = ['positive', 'neutral', 'negative'];

/** What the rules said about one aspect of one review. */
export type RuleVerdict = { mentioned: boolean; raw: number };

export function listDetectionFeatures(review: FeatureSpans, rule: RuleVerdict, rating: number | null): string[] {
  const names = [...review.keys()].filter((name) => !name.startsWith('n:'));
  names.push(...describeRule(rule));
  if (rating !== null) names.push(`star:${rating}`);
  return names;
}

export function listPolarityFeatures(context: FeatureSpans, rule: RuleVerdict, rating: number | null, aspect: string): string[] {
  const names = [...context.keys()];
  const verdict = describeRule(rule);
  names.push(...verdict, `a:${aspect}`, ...verdict.map((v) => `a:${aspect}|${v}`));
  if (rating !== null) names.push(`star:${rating}`, `a:${aspect}|star:${rating}`, ...verdict.map((v) => `${v}|star:${rating}`));
  return names;
}

/** The rules' verdict; `r:strength+`/`r:strength-` repeats once per unit of the raw score, up to 4. */
function describeRule(rule: RuleVerdict): string[] {
  if (!rule.mentioned) return ['r:none'];
  const names = ['r:mention'];
  const units = Math.min(4, Math.round(Math.abs(rule.raw)));
  for (let i = 0; i < units; i++) names.push(rule.raw > 0 ? 'r:strength+' : 'r:strength-');
  if (rule.raw > 0.5) names.push(rule.raw > 2 ? 'r:pos2' : 'r:pos');
  else if (rule.raw < -0.5) names.push(rule.raw < -2 ? 'r:neg2' : 'r:neg');
  else names.push('r:zero');
  return names;
}

export function scoreDetection(weights: LearnedWeights['detection'][string], features: readonly string[]): number {
  let sum = weights.bias;
  for (const name of features) sum += weights.weights[name] ?? 0;
  return 1 / (1 + Math.exp(-sum));
}

/** Probabilities of positive, neutral, negative. */
export function scorePolarity(weights: LearnedWeights['polarity'], features: readonly string[]): [number, number, number] {
  const sums = [...weights.bias] as [number, number, number];
  for (const name of features) {
    const w = weights.weights[name];
    if (w === undefined) continue;
    sums[0] += w[0];
    sums[1] += w[1];
    sums[2] += w[2];
  }
  const top = Math.max(...sums);
  const exps = sums.map((s) => Math.exp(s - top));
  const total = exps[0]! + exps[1]! + exps[2]!;
  return [exps[0]! / total, exps[1]! / total, exps[2]! / total];
}
