/**
 * `npm run train`: fits the learned layer of the insights analyzer (core/insights/learned-model.ts) on
 * the train split of tools/insights-corpus/ and writes core/insights/learned-weights.json, then
 * measures the new layer's error per aspect on the dev split and, cross-fitted, on the train split
 * (core/insights/aspect-accuracy.json, as `npm run eval` does: insights-corpus/measure-accuracy.ts).
 * Never trains on dev and never reads the test split.
 *
 * Deterministic (insights-corpus/train-layer.ts), keys sorted. Re-running on the same data
 * and the same default aspect set (core/insights/default-aspects.json) writes the same bytes (tests/insights/train.test.ts checks).
 *
 * Options: `--out FILE` writes the weights elsewhere (the reproducibility test uses it), and then
 * the accuracy table only where `--accuracy-out FILE` says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AspectConfigSchema } from '../core/schemas/aspect-config.ts';
import { compileAspectModel, withTechnicians } from '../core/insights/aspect-model.ts';
import type { LearnedWeights } from '../core/insights/learned-model.ts';
import { loadCorpusSplit, loadCorpusTechnicians } from './insights-corpus/load-corpus.ts';
import { DEFAULT_ASPECTS_FILE } from '../core/content/load-content.ts';
import { ACCURACY_FILE, writeAspectAccuracy } from './insights-corpus/measure-accuracy.ts';
import { DEFAULT_TRAIN_OPTIONS, trainLearnedLayer } from './insights-corpus/train-layer.ts';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1]! : join(root, 'core/insights/learned-weights.json');
const accuracyOut = args.includes('--accuracy-out') ? args[args.indexOf('--accuracy-out') + 1]! : args.includes('--out') ? undefined : ACCURACY_FILE;

const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const options = {
  rounds: option('--rounds', DEFAULT_TRAIN_OPTIONS.rounds),
  l2: option('--l2', DEFAULT_TRAIN_OPTIONS.l2),
  minCount: option('--min-count', DEFAULT_TRAIN_OPTIONS.minCount),
  detectionThreshold: option('--threshold', DEFAULT_TRAIN_OPTIONS.detectionThreshold),
  neutralThreshold: option('--neutral', DEFAULT_TRAIN_OPTIONS.neutralThreshold),
  pruneBelow: option('--prune', DEFAULT_TRAIN_OPTIONS.pruneBelow),
};

const started = performance.now();
const config = AspectConfigSchema.parse(JSON.parse(readFileSync(DEFAULT_ASPECTS_FILE, 'utf8')));
const technicians = loadCorpusTechnicians();
const reviews = loadCorpusSplit('train');
const weights = trainLearnedLayer(reviews, config, technicians, options);
writeFileSync(out, formatWeights(weights));
const labels = reviews.reduce((sum, r) => sum + r.labels.length, 0);
console.log(`trained on ${reviews.length} reviews (${labels} aspect labels) in ${((performance.now() - started) / 1000).toFixed(1)} s: ${out}`);
if (accuracyOut !== undefined) {
  const trained = withTechnicians(compileAspectModel(config, weights), technicians);
  writeAspectAccuracy({ model: trained, config, technicians, options }, accuracyOut);
  console.log(`measured the error per aspect on the dev split and the cross-fitted train split: ${accuracyOut}`);
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
