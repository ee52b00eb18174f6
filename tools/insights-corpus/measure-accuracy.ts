/**
 * Measures the analyser's confusion per aspect and writes it to core/insights/aspect-accuracy.json, the
 * table the build corrects counts with (core/insights/aspect-accuracy.ts). Never the test split: it
 * stays the check of the corrected counts.
 *
 * The table pools two measurements, so the rates rest on 2,471 labelled reviews instead of 609:
 * - the shipped model on the dev split, which it was not trained on;
 * - the train split, cross-fitted: the train split is cut into CROSS_FIT_FOLDS folds by id (split.ts),
 *   the learned layer is trained again on all folds but one, with the same rules and options as the
 *   shipped one, and that model classifies the fold left out. Every train review is so classified by a
 *   model that never saw it; the shipped model, which memorised the train split, is never scored on it.
 * The fold models are trained on 4/5 of the train split, and so raise a little more false alarms
 * than the shipped model (docs/insights.md, "Corrected counts", gives the size of that difference).
 *
 * `npm run eval` and `npm run train` both call it; tests/insights/train.test.ts fails while the
 * committed table is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { compileAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import type { AspectModel } from '../../core/insights/aspect-model.ts';
import type { AspectAccuracyTable } from '../../core/insights/aspect-accuracy.ts';
import { COUNT_CLASSES } from '../../core/insights/count-estimate.ts';
import type { AspectConfig } from '../../core/schemas/aspect-config.ts';
import type { Technician } from '../../core/schemas/content.ts';
import type { LabelledReview } from './evaluate-reviews.ts';
import { loadCorpusSplit } from './load-corpus.ts';
import { assignFold } from './split.ts';
import { DEFAULT_TRAIN_OPTIONS, trainLearnedLayer } from './train-layer.ts';
import type { TrainOptions } from './train-layer.ts';

export const ACCURACY_FILE = join(import.meta.dirname, '../../core/insights/aspect-accuracy.json');

export const CROSS_FIT_FOLDS = 5;

/** What the table is measured with: the shipped model and what it was trained from. */
export type AccuracySource = { model: AspectModel; config: AspectConfig; technicians: readonly Technician[]; options?: TrainOptions };

/**
 * One labelled review as classified by a model that never saw it: `fold` is 'dev' (the shipped model)
 * or the train fold it was held out of; `labelled` and `found` are its class of every aspect (by
 * aspect index, in the class order of count-estimate.ts).
 */
export type HeldOutReview = { fold: 'dev' | number; labelled: number[]; found: number[] };

export type HeldOutSet = { aspects: string[]; dev: number; train: number; reviews: HeldOutReview[] };

/** Every dev review and every train review, each classified by a model that never saw it (see above). */
export function classifyHeldOut(source: AccuracySource): HeldOutSet {
  const { model, config, technicians, options = DEFAULT_TRAIN_OPTIONS } = source;
  const dev = loadCorpusSplit('dev');
  const reviews = classify(dev, model, 'dev');
  const train = loadCorpusSplit('train');
  for (let fold = 0; fold < CROSS_FIT_FOLDS; fold++) {
    const weights = trainLearnedLayer(train.filter((r) => assignFold(r.id, CROSS_FIT_FOLDS) !== fold), config, technicians, options);
    const foldModel = withTechnicians(compileAspectModel(config, weights), technicians);
    reviews.push(...classify(train.filter((r) => assignFold(r.id, CROSS_FIT_FOLDS) === fold), foldModel, fold));
  }
  return { aspects: model.aspects.map((a) => a.id), dev: dev.length, train: train.length, reviews };
}

export function measureAspectAccuracy(source: AccuracySource): AspectAccuracyTable {
  const held = classifyHeldOut(source);
  return {
    $comment: `Written by npm run eval / npm run train (tools/insights-corpus/measure-accuracy.ts) from the ${held.dev} reviews of the corpus dev split and the ${held.train} of its train split, cross-fitted in ${CROSS_FIT_FOLDS} folds; rows labelled, columns found: ${COUNT_CLASSES.join(', ')}. Do not edit.`,
    split: `dev+train-cross-fitted-${CROSS_FIT_FOLDS}`,
    reviews: held.dev + held.train,
    aspects: tabulateConfusion(held.aspects, held.reviews),
  };
}

/** Each aspect's confusion (rows labelled, columns found) over `reviews`. */
export function tabulateConfusion(aspects: readonly string[], reviews: readonly HeldOutReview[]): AspectAccuracyTable['aspects'] {
  const table: AspectAccuracyTable['aspects'] = {};
  aspects.forEach((aspect, a) => {
    const rows = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    for (const review of reviews) rows[review.labelled[a]!]![review.found[a]!]!++;
    table[aspect] = rows as AspectAccuracyTable['aspects'][string];
  });
  return table;
}

function classify(reviews: readonly LabelledReview[], model: AspectModel, fold: HeldOutReview['fold']): HeldOutReview[] {
  const classOf = (polarity: string | undefined) => (polarity === undefined ? 0 : COUNT_CLASSES.indexOf(polarity as never));
  return reviews.map((review) => {
    const found = new Map(analyzeReview(getAnalysisText(review), model, review.rating).map((m) => [m.aspect, m.polarity]));
    const labelled = new Map(review.labels.map((l) => [l.aspect, l.polarity]));
    return { fold, labelled: model.aspects.map((a) => classOf(labelled.get(a.id))), found: model.aspects.map((a) => classOf(found.get(a.id))) };
  });
}

/** One line per aspect, so a retrain shows as a diff per aspect. */
export function formatAccuracyTable(table: AspectAccuracyTable): string {
  const lines = Object.entries(table.aspects).map(([id, rows]) => `    ${JSON.stringify(id)}: ${JSON.stringify(rows)}`);
  return [
    '{',
    `  "$comment": ${JSON.stringify(table.$comment)},`,
    `  "split": ${JSON.stringify(table.split)},`,
    `  "reviews": ${table.reviews},`,
    `  "aspects": {\n${lines.join(',\n')}\n  }`,
    '}',
    '',
  ].join('\n');
}

export function writeAspectAccuracy(source: AccuracySource, file = ACCURACY_FILE): AspectAccuracyTable {
  const table = measureAspectAccuracy(source);
  writeFileSync(file, formatAccuracyTable(table));
  return table;
}
