/**
 * `npm run train`: fits the learned layer of the insights analyzer (core/insights/learned-model.ts) on
 * the train split of tools/insights-corpus/ and writes core/insights/learned-weights.json, then
 * measures the new layer's error per aspect on the dev split (core/insights/aspect-accuracy.json, as
 * `npm run eval` does). Never trains on dev and never reads the test split.
 *
 * Deterministic: reviews in id order, features in name order, full-batch AdaGrad from zero weights for
 * a fixed number of rounds, weights rounded to 3 decimals, keys sorted. Re-running on the same data
 * and the same default aspect set (core/insights/default-aspects.json) writes the same bytes (tests/insights/train.test.ts checks).
 *
 * Options: `--out FILE` writes the weights elsewhere (the reproducibility test uses it), and then
 * the accuracy table only where `--accuracy-out FILE` says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findStrongestSpans, prepareReview, selectContext, selectRuleContext, getAnalysisText } from '../core/insights/analyze-review.ts';
import { AspectConfigSchema } from '../core/schemas/aspect-config.ts';
import { compileAspectModel, withTechnicians } from '../core/insights/aspect-model.ts';
import { LEARNED_CLASSES, listDetectionFeatures, listPolarityFeatures } from '../core/insights/learned-model.ts';
import type { LearnedWeights } from '../core/insights/learned-model.ts';
import { loadCorpusSplit, loadCorpusTechnicians } from './insights-corpus/load-corpus.ts';
import { DEFAULT_ASPECTS_FILE } from '../core/content/load-content.ts';
import { compareText } from '../core/text/text-rules.ts';
import { ACCURACY_FILE, writeAspectAccuracy } from './insights-corpus/measure-accuracy.ts';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1]! : join(root, 'core/insights/learned-weights.json');
const accuracyOut = args.includes('--accuracy-out') ? args[args.indexOf('--accuracy-out') + 1]! : args.includes('--out') ? undefined : ACCURACY_FILE;

const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const ROUNDS = option('--rounds', 300);
const STEP = 0.3;
const L2 = option('--l2', 0.002);
const MIN_COUNT = option('--min-count', 2);
const DETECTION_THRESHOLD = option('--threshold', 0.35);
const NEUTRAL_THRESHOLD = option('--neutral', 0.25);
const PRUNE_BELOW = option('--prune', 0.02);

const started = performance.now();
const config = AspectConfigSchema.parse(JSON.parse(readFileSync(DEFAULT_ASPECTS_FILE, 'utf8')));
// The rules alone, with feature extraction on: what the learned layer is stacked on.
const emptyLayer: LearnedWeights = { $comment: '', detection_threshold: 0, neutral_threshold: 1, detection: {}, polarity: { bias: [0, 0, 0], weights: {} } };
const model = withTechnicians(compileAspectModel(config, emptyLayer), loadCorpusTechnicians());
const reviews = loadCorpusSplit('train').sort((a, b) => compareText(a.id, b.id));
const prepared = reviews.map((review) => ({ review, ...prepareReview(getAnalysisText(review), model) }));

const detection: LearnedWeights['detection'] = {};
model.aspects.forEach((info, a) => {
  const examples = prepared.map((p) => ({
    features: listDetectionFeatures(p.reviewFeatures, p.rules[a]!, p.review.rating, selectRuleContext(p.features, p.rules[a]!)),
    label: p.review.labels.some((l) => l.aspect === info.id) ? 1 : 0,
  }));
  const fitted = fitLogistic(examples.map((e) => e.features), examples.map((e) => [e.label === 1 ? 1 : 0, e.label === 1 ? 0 : 1]), 2);
  detection[info.id] = { bias: round(fitted.bias[0]! - fitted.bias[1]!), weights: mapWeights(fitted.weights, (w) => w[0]! - w[1]!) };
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
const polarity = fitLogistic(polarityFeatures, polarityLabels, 3);

const weights: LearnedWeights = {
  $comment: `Written by npm run train (tools/train-insights.ts) from the ${reviews.length} reviews of the corpus train split; do not edit.`,
  detection_threshold: DETECTION_THRESHOLD,
  neutral_threshold: NEUTRAL_THRESHOLD,
  detection,
  polarity: {
    bias: polarity.bias.map(round) as [number, number, number],
    weights: mapWeights(polarity.weights, (w) => w.map(round) as [number, number, number]),
  },
};
writeFileSync(out, formatWeights(weights));
console.log(`trained on ${reviews.length} reviews (${polarityLabels.length} aspect labels) in ${((performance.now() - started) / 1000).toFixed(1)} s: ${out}`);
if (accuracyOut !== undefined) {
  const trained = withTechnicians(compileAspectModel(config, weights), loadCorpusTechnicians());
  writeAspectAccuracy(trained, accuracyOut);
  console.log(`measured the error per aspect on the dev split: ${accuracyOut}`);
}

/**
 * Multinomial logistic regression (softmax over `classes` outputs) by full-batch AdaGrad with L2.
 * Features are present or absent; those seen in fewer than MIN_COUNT examples are left out.
 */
function fitLogistic(featureLists: string[][], targets: number[][], classes: number) {
  const counts = new Map<string, number>();
  for (const list of featureLists) for (const name of new Set(list)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const vocabulary = [...counts].filter(([, n]) => n >= MIN_COUNT).map(([name]) => name).sort();
  const indexOf = new Map(vocabulary.map((name, i) => [name, i]));
  // A name listed k times counts k times (the rules' strength is given that way).
  const rows = featureLists.map((list) => list.flatMap((name) => indexOf.get(name) ?? []).sort((x, y) => x - y));
  const size = vocabulary.length;
  const w = new Float64Array(size * classes);
  const b = new Float64Array(classes);
  const gw = new Float64Array(size * classes);
  const gb = new Float64Array(classes);
  const hw = new Float64Array(size * classes);
  const hb = new Float64Array(classes);
  const n = rows.length;
  const sums = new Float64Array(classes);
  for (let round = 0; round < ROUNDS; round++) {
    gw.fill(0);
    gb.fill(0);
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      for (let c = 0; c < classes; c++) {
        let s = b[c]!;
        for (const f of row) s += w[f * classes + c]!;
        sums[c] = s;
      }
      let top = -Infinity;
      for (let c = 0; c < classes; c++) top = Math.max(top, sums[c]!);
      let total = 0;
      for (let c = 0; c < classes; c++) total += sums[c] = Math.exp(sums[c]! - top);
      const target = targets[i]!;
      for (let c = 0; c < classes; c++) {
        const error = sums[c]! / total - target[c]!;
        gb[c]! += error;
        for (const f of row) gw[f * classes + c]! += error;
      }
    }
    for (let c = 0; c < classes; c++) {
      const g = gb[c]! / n;
      hb[c]! += g * g;
      b[c]! -= (STEP * g) / (Math.sqrt(hb[c]!) + 1e-8);
    }
    for (let k = 0; k < size * classes; k++) {
      const g = gw[k]! / n + L2 * w[k]!;
      hw[k]! += g * g;
      w[k]! -= (STEP * g) / (Math.sqrt(hw[k]!) + 1e-8);
    }
  }
  const weightsByName = new Map<string, number[]>();
  vocabulary.forEach((name, i) => weightsByName.set(name, Array.from(w.subarray(i * classes, (i + 1) * classes))));
  return { bias: Array.from(b), weights: weightsByName };
}

function mapWeights<T>(weightsByName: Map<string, number[]>, convert: (w: number[]) => T): Record<string, T> {
  const result: Record<string, T> = {};
  for (const [name, w] of weightsByName) {
    const converted = convert(w);
    const values = Array.isArray(converted) ? (converted as number[]) : [converted as number];
    // Weights this small change no decision worth keeping and would only make the file large.
    if (values.every((v) => Math.abs(v) < PRUNE_BELOW)) continue;
    result[name] = (Array.isArray(converted) ? converted : round(converted as number)) as T;
  }
  return result;
}

/** One line per weight table: small, and a retrain shows as a diff per aspect. */
function formatWeights(w: LearnedWeights): string {
  const detection = Object.entries(w.detection).map(([id, d]) => `    ${JSON.stringify(id)}: ${JSON.stringify(d)}`);
  return [
    '{',
    `  "$comment": ${JSON.stringify(w.$comment)},`,
    `  "detection_threshold": ${w.detection_threshold},`,
    `  "neutral_threshold": ${w.neutral_threshold},`,
    `  "detection": {\n${detection.join(',\n')}\n  },`,
    `  "polarity": ${JSON.stringify(w.polarity)}`,
    '}',
    '',
  ].join('\n');
}

function round(value: number): number {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}
