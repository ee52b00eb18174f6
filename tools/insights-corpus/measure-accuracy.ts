/**
 * Measures the analyser's confusion per aspect on the corpus's dev split and writes it to
 * core/insights/aspect-accuracy.json, the table the build corrects counts with (core/insights/
 * aspect-accuracy.ts). Dev, never test: the test split stays the check of the corrected counts.
 * `npm run eval` and `npm run train` both call it; tests/insights/train.test.ts fails while
 * the committed table is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, getAnalysisText } from '../../core/insights/analyze-review.ts';
import type { AspectModel } from '../../core/insights/aspect-model.ts';
import type { AspectAccuracyTable } from '../../core/insights/aspect-accuracy.ts';
import { COUNT_CLASSES } from '../../core/insights/count-estimate.ts';
import { loadCorpusSplit } from './load-corpus.ts';

export const ACCURACY_FILE = join(import.meta.dirname, '../../core/insights/aspect-accuracy.json');

export function measureAspectAccuracy(model: AspectModel): AspectAccuracyTable {
  const reviews = loadCorpusSplit('dev');
  const classOf = (polarity: string | undefined) => (polarity === undefined ? 0 : COUNT_CLASSES.indexOf(polarity as never));
  const aspects: AspectAccuracyTable['aspects'] = {};
  const tables = model.aspects.map(() => [0, 1, 2, 3].map(() => [0, 0, 0, 0]));
  for (const review of reviews) {
    const found = new Map(analyzeReview(getAnalysisText(review), model, review.rating).map((m) => [m.aspect, m.polarity]));
    const labelled = new Map(review.labels.map((l) => [l.aspect, l.polarity]));
    model.aspects.forEach((aspect, a) => {
      tables[a]![classOf(labelled.get(aspect.id))]![classOf(found.get(aspect.id))]!++;
    });
  }
  model.aspects.forEach((aspect, a) => {
    aspects[aspect.id] = tables[a] as AspectAccuracyTable['aspects'][string];
  });
  return {
    $comment: `Written by npm run eval / npm run train (tools/insights-corpus/measure-accuracy.ts) from the ${reviews.length} reviews of the corpus dev split; rows labelled, columns found: ${COUNT_CLASSES.join(', ')}. Do not edit.`,
    split: 'dev',
    reviews: reviews.length,
    aspects,
  };
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

export function writeAspectAccuracy(model: AspectModel, file = ACCURACY_FILE): AspectAccuracyTable {
  const table = measureAspectAccuracy(model);
  writeFileSync(file, formatAccuracyTable(table));
  return table;
}
