/**
 * The learned layer of the analyzer: two logistic regressions stacked on the lexicon rules and the
 * star rating, trained on the train split of the realistic corpus by `npm run train`
 * (tools/train-insights.ts) and shipped as learned-weights.json.
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
  /**
   * The polarity model's neutral class wins when its probability reaches this, even below the others:
   * lukewarm judgements ("price was ok") are rare, so a plain argmax almost never picks them.
   */
  neutral_threshold: z.number(),
  detection: z.record(z.string(), z.strictObject({ bias: z.number(), weights: WeightsSchema })),
  polarity: z.strictObject({
    bias: z.tuple([z.number(), z.number(), z.number()]),
    weights: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])),
  }),
});

export type LearnedWeights = z.infer<typeof LearnedWeightsSchema>;

/** Class order of the polarity model's outputs. */
export const LEARNED_CLASSES: readonly Polarity[] = ['positive', 'neutral', 'negative'];

/** The polarity of the probabilities of positive, neutral and negative (scorePolarity). */
export function choosePolarity(probabilities: readonly [number, number, number], neutralThreshold: number): Polarity {
  const [positive, neutral, negative] = probabilities;
  if (neutral >= neutralThreshold || (neutral > positive && neutral > negative)) return 'neutral';
  return positive >= negative ? 'positive' : 'negative';
}

/** What the rules said about one aspect of one review. */
export type RuleVerdict = { mentioned: boolean; raw: number };

export function listDetectionFeatures(review: FeatureSpans, rule: RuleVerdict, rating: number | null, local?: FeatureSpans): string[] {
  return [...listReviewFeatures(review), ...listAspectFeatures(rule, rating, local)];
}

/** The part of the detection features shared by every aspect of a review (computed once per review). */
export function listReviewFeatures(review: FeatureSpans): string[] {
  return [...review.keys()].filter((name) => !name.startsWith('n:'));
}

/**
 * The part of the detection features proper to one aspect: the rules' verdict, the stars, and the words
 * of the clauses where the rules found the aspect (`l:…`, from selectContext), which tell a judgement
 * ("the tech was rude") from a passing mention ("called the office").
 */
export function listAspectFeatures(rule: RuleVerdict, rating: number | null, local?: FeatureSpans): string[] {
  const names = describeRule(rule);
  if (local !== undefined) for (const name of local.keys()) if (!name.startsWith('n:')) names.push(`l:${name}`);
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

/**
 * The weights compiled once per weights object: every feature name gets an integer id, and each
 * aspect's detection weights and the polarity weights become arrays by id, so a review's features are
 * looked up once and scored for every aspect by indexing (a record of thousands of keys is slow to read).
 */
export type CompiledWeights = {
  ids: Map<string, number>;
  detection: Map<string, { bias: number; weights: Float64Array }>;
  polarity: { bias: [number, number, number]; weights: Float64Array };
};

const compiled = new WeakMap<LearnedWeights, CompiledWeights>();

export function compileWeights(learned: LearnedWeights): CompiledWeights {
  const cached = compiled.get(learned);
  if (cached !== undefined) return cached;
  const ids = new Map<string, number>();
  const idOf = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) ids.set(name, (id = ids.size));
    return id;
  };
  for (const d of Object.values(learned.detection)) for (const name of Object.keys(d.weights)) idOf(name);
  for (const name of Object.keys(learned.polarity.weights)) idOf(name);
  const detection = new Map<string, { bias: number; weights: Float64Array }>();
  for (const [aspect, d] of Object.entries(learned.detection)) {
    const weights = new Float64Array(ids.size);
    for (const [name, w] of Object.entries(d.weights)) weights[ids.get(name)!] = w;
    detection.set(aspect, { bias: d.bias, weights });
  }
  const polarityWeights = new Float64Array(ids.size * 3);
  for (const [name, w] of Object.entries(learned.polarity.weights)) polarityWeights.set(w, ids.get(name)! * 3);
  const result = { ids, detection, polarity: { bias: learned.polarity.bias, weights: polarityWeights } };
  compiled.set(learned, result);
  return result;
}

/** The ids of the names the weights know; unknown names weigh nothing and are dropped. */
export function toFeatureIds(weights: CompiledWeights, names: readonly string[]): number[] {
  const result: number[] = [];
  for (const name of names) {
    const id = weights.ids.get(name);
    if (id !== undefined) result.push(id);
  }
  return result;
}

export function scoreDetection(detector: { bias: number; weights: Float64Array }, ...idLists: (readonly number[])[]): number {
  let sum = detector.bias;
  for (const ids of idLists) for (const id of ids) sum += detector.weights[id]!;
  return 1 / (1 + Math.exp(-sum));
}

/** Probabilities of positive, neutral, negative. */
export function scorePolarity(weights: CompiledWeights['polarity'], ids: readonly number[]): [number, number, number] {
  const sums = [...weights.bias] as [number, number, number];
  const w = weights.weights;
  for (const id of ids) {
    sums[0] += w[id * 3]!;
    sums[1] += w[id * 3 + 1]!;
    sums[2] += w[id * 3 + 2]!;
  }
  const top = Math.max(...sums);
  const exps = sums.map((s) => Math.exp(s - top));
  const total = exps[0]! + exps[1]! + exps[2]!;
  return [exps[0]! / total, exps[1]! / total, exps[2]! / total];
}
