/**
 * Fits the learned layer of the insights analyzer (core/insights/learned-model.ts) on labelled reviews:
 * one detection regression per aspect and the shared polarity regression, stacked on the rules of
 * `config`. `npm run train` fits it on the train split; measure-accuracy.ts also fits it on parts of
 * the train split to measure the error on the part left out (cross-fitting).
 *
 * Deterministic: reviews in id order, features in name order, full-batch AdaGrad from zero weights for
 * a fixed number of rounds, weights rounded to 3 decimals, so the same reviews give the same weights.
 */
import { findStrongestSpans, prepareReview, selectContext, selectRuleContext, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { compileAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import { LEARNED_CLASSES, listDetectionFeatures, listPolarityFeatures } from '../../core/insights/learned-model.ts';
import type { LearnedWeights } from '../../core/insights/learned-model.ts';
import type { AspectConfig } from '../../core/schemas/aspect-config.ts';
import type { Technician } from '../../core/schemas/content.ts';
import { compareText } from '../../core/text/text-rules.ts';
import type { LabelledReview } from './evaluate-reviews.ts';

export type TrainOptions = {
  rounds: number;
  l2: number;
  /** Features seen in fewer examples are left out. */
  minCount: number;
  detectionThreshold: number;
  neutralThreshold: number;
  /** Weights this small change no decision worth keeping and would only make the file large. */
  pruneBelow: number;
};

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { rounds: 300, l2: 0.002, minCount: 2, detectionThreshold: 0.35, neutralThreshold: 0.25, pruneBelow: 0.02 };

const STEP = 0.3;

export function trainLearnedLayer(
  labelled: readonly LabelledReview[],
  config: AspectConfig,
  technicians: readonly Technician[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): LearnedWeights {
  // The rules alone, with feature extraction on: what the learned layer is stacked on.
  const emptyLayer: LearnedWeights = { $comment: '', detection_threshold: 0, neutral_threshold: 1, detection: {}, polarity: { bias: [0, 0, 0], weights: {} } };
  const model = withTechnicians(compileAspectModel(config, emptyLayer), technicians);
  const reviews = [...labelled].sort((a, b) => compareText(a.id, b.id));
  const prepared = reviews.map((review) => ({ review, ...prepareReview(getAnalysisText(review), model) }));

  const detection: LearnedWeights['detection'] = {};
  model.aspects.forEach((info, a) => {
    const examples = prepared.map((p) => ({
      features: listDetectionFeatures(p.reviewFeatures, p.rules[a]!, p.review.rating, selectRuleContext(p.features, p.rules[a]!)),
      label: p.review.labels.some((l) => l.aspect === info.id) ? 1 : 0,
    }));
    const fitted = fitLogistic(examples.map((e) => e.features), examples.map((e) => [e.label === 1 ? 1 : 0, e.label === 1 ? 0 : 1]), 2, options);
    detection[info.id] = { bias: round(fitted.bias[0]! - fitted.bias[1]!), weights: mapWeights(fitted.weights, (w) => w[0]! - w[1]!, options) };
  });

  const polarityFeatures: string[][] = [];
  const polarityLabels: number[][] = [];
  for (const p of prepared) {
    for (const label of p.review.labels) {
      const a = model.aspects.findIndex((info) => info.id === label.aspect);
      const rule = p.rules[a];
      const weights = detection[label.aspect]?.weights;
      if (rule === undefined || weights === undefined) continue;
      const spans = rule.mentioned ? rule.spans : findStrongestSpans(p.reviewFeatures, (name) => weights[name] ?? 0);
      polarityFeatures.push(listPolarityFeatures(selectContext(p.features, spans), rule, p.review.rating, label.aspect));
      polarityLabels.push(LEARNED_CLASSES.map((c) => (c === label.polarity ? 1 : 0)));
    }
  }
  const polarity = fitLogistic(polarityFeatures, polarityLabels, 3, options);

  return {
    $comment: `Written by npm run train (tools/train-insights.ts) from the ${reviews.length} reviews of the corpus train split; do not edit.`,
    detection_threshold: options.detectionThreshold,
    neutral_threshold: options.neutralThreshold,
    detection,
    polarity: {
      bias: polarity.bias.map(round) as [number, number, number],
      weights: mapWeights(polarity.weights, (w) => w.map(round) as [number, number, number], options),
    },
  };
}

/**
 * Multinomial logistic regression (softmax over `classes` outputs) by full-batch AdaGrad with L2.
 * Features are present or absent; those seen in fewer than minCount examples are left out.
 */
function fitLogistic(featureLists: string[][], targets: number[][], classes: 2 | 3, options: TrainOptions) {
  const counts = new Map<string, number>();
  for (const list of featureLists) for (const name of new Set(list)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const vocabulary = [...counts].filter(([, n]) => n >= options.minCount).map(([name]) => name).sort();
  const indexOf = new Map(vocabulary.map((name, i) => [name, i]));
  // A name listed k times counts k times (the rules' strength is given that way). The rows are kept as
  // one flat array of each feature's first cell in `w` (feature × classes), row i from starts[i] to
  // starts[i + 1]: the sums and gradients below then add the same numbers in the same order as a loop
  // over each row's names would, so the weights are the same to the last bit (npm run train: 24 s, from 60 s).
  const rows = featureLists.map((list) => list.flatMap((name) => indexOf.get(name) ?? []).sort((x, y) => x - y));
  const n = rows.length;
  const starts = new Int32Array(n + 1);
  rows.forEach((row, i) => (starts[i + 1] = starts[i]! + row.length));
  const cells = Int32Array.from(rows.flat(), (f) => f * classes);
  const size = vocabulary.length;
  const w = new Float64Array(size * classes);
  const b = new Float64Array(classes);
  const gw = new Float64Array(size * classes);
  const gb = new Float64Array(classes);
  const hw = new Float64Array(size * classes);
  const hb = new Float64Array(classes);
  const sums = new Float64Array(classes);
  const errors = new Float64Array(classes);
  for (let round = 0; round < options.rounds; round++) {
    gw.fill(0);
    gb.fill(0);
    for (let i = 0; i < n; i++) {
      const from = starts[i]!;
      const to = starts[i + 1]!;
      scoreRow(sums, b, w, cells, from, to, classes);
      let top = -Infinity;
      for (let c = 0; c < classes; c++) top = Math.max(top, sums[c]!);
      let total = 0;
      for (let c = 0; c < classes; c++) total += sums[c] = Math.exp(sums[c]! - top);
      const target = targets[i]!;
      for (let c = 0; c < classes; c++) {
        errors[c] = sums[c]! / total - target[c]!;
        gb[c]! += errors[c]!;
      }
      addToRow(gw, errors, cells, from, to, classes);
    }
    for (let c = 0; c < classes; c++) {
      const g = gb[c]! / n;
      hb[c]! += g * g;
      b[c]! -= (STEP * g) / (Math.sqrt(hb[c]!) + 1e-8);
    }
    for (let k = 0; k < size * classes; k++) {
      const g = gw[k]! / n + options.l2 * w[k]!;
      hw[k]! += g * g;
      w[k]! -= (STEP * g) / (Math.sqrt(hw[k]!) + 1e-8);
    }
  }
  const weightsByName = new Map<string, number[]>();
  vocabulary.forEach((name, i) => weightsByName.set(name, Array.from(w.subarray(i * classes, (i + 1) * classes))));
  return { bias: Array.from(b), weights: weightsByName };
}

/**
 * A row's sums (scoreRow) and its share of the gradient (addToRow), each in one pass over its cells for
 * all classes at once (two or three: detection, polarity). Each class still adds the same numbers in the
 * same order as a pass per class, so the weights are the same to the last bit; npm run train took
 * 21–22 s of CPU instead of 26–27 s (two runs of each, in turn, on a quiet 2-core machine).
 */
function scoreRow(sums: Float64Array, b: Float64Array, w: Float64Array, cells: Int32Array, from: number, to: number, classes: 2 | 3): void {
  let s0 = b[0]!;
  let s1 = b[1]!;
  let s2 = classes === 3 ? b[2]! : 0;
  if (classes === 2) {
    for (let j = from; j < to; j++) {
      const k = cells[j]!;
      s0 += w[k]!;
      s1 += w[k + 1]!;
    }
  } else {
    for (let j = from; j < to; j++) {
      const k = cells[j]!;
      s0 += w[k]!;
      s1 += w[k + 1]!;
      s2 += w[k + 2]!;
    }
  }
  sums[0] = s0;
  sums[1] = s1;
  if (classes === 3) sums[2] = s2;
}

function addToRow(gw: Float64Array, errors: Float64Array, cells: Int32Array, from: number, to: number, classes: 2 | 3): void {
  const e0 = errors[0]!;
  const e1 = errors[1]!;
  const e2 = classes === 3 ? errors[2]! : 0;
  if (classes === 2) {
    for (let j = from; j < to; j++) {
      const k = cells[j]!;
      gw[k]! += e0;
      gw[k + 1]! += e1;
    }
  } else {
    for (let j = from; j < to; j++) {
      const k = cells[j]!;
      gw[k]! += e0;
      gw[k + 1]! += e1;
      gw[k + 2]! += e2;
    }
  }
}

function mapWeights<T>(weightsByName: Map<string, number[]>, convert: (w: number[]) => T, options: TrainOptions): Record<string, T> {
  const result: Record<string, T> = {};
  for (const [name, w] of weightsByName) {
    const converted = convert(w);
    const values = Array.isArray(converted) ? (converted as number[]) : [converted as number];
    if (values.every((v) => Math.abs(v) < options.pruneBelow)) continue;
    result[name] = (Array.isArray(converted) ? converted : round(converted as number)) as T;
  }
  return result;
}

function round(value: number): number {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}
