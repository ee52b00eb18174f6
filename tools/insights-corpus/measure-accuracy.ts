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

export function measureAspectAccuracy(source: AccuracySource): AspectAccuracyTable {
  const { model, config, technicians, options = DEFAULT_TRAIN_OPTIONS } = source;
  const tables = model.aspects.map(() => [0, 1, 2, 3].map(() => [0, 0, 0, 0]));
  const dev = loadCorpusSplit('dev');
  addConfusion(tables, dev, model);
  const train = loadCorpusSplit('train');
  for (let fold = 0; fold < CROSS_FIT_FOLDS; fold++) {
    const weights = trainLearnedLayer(train.filter((r) => assignFold(r.id, CROSS_FIT_FOLDS) !== fold), config, technicians, options);
    const foldModel = withTechnicians(compileAspectModel(config, weights), technicians);
    addConfusion(tables, train.filter((r) => assignFold(r.id, CROSS_FIT_FOLDS) === fold), foldModel);
  }
  const aspects: AspectAccuracyTable['aspects'] = {};
  model.aspects.forEach((aspect, a) => {
    aspects[aspect.id] = tables[a] as AspectAccuracyTable['aspects'][string];
  });
  return {
    $comment: `Written by npm run eval / npm run train (tools/insights-corpus/measure-accuracy.ts) from the ${dev.length} reviews of the corpus dev split and the ${train.length} of its train split, cross-fitted in ${CROSS_FIT_FOLDS} folds; rows labelled, columns found: ${COUNT_CLASSES.join(', ')}. Do not edit.`,
    split: `dev+train-cross-fitted-${CROSS_FIT_FOLDS}`,
    reviews: dev.length + train.length,
    aspects,
  };
}

/** Adds each review's (labelled, found) class of every aspect to its aspect's table. */
function addConfusion(tables: number[][][], reviews: readonly LabelledReview[], model: AspectModel) {
  const classOf = (polarity: string | undefined) => (polarity === undefined ? 0 : COUNT_CLASSES.indexOf(polarity as never));
  for (const review of reviews) {
    const found = new Map(analyzeReview(getAnalysisText(review), model, review.rating).map((m) => [m.aspect, m.polarity]));
    const labelled = new Map(review.labels.map((l) => [l.aspect, l.polarity]));
    model.aspects.forEach((aspect, a) => {
      tables[a]![classOf(labelled.get(aspect.id))]![classOf(found.get(aspect.id))]!++;
    });
  }
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
