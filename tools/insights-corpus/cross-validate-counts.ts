/**
 * `node tools/insights-corpus/cross-validate-counts.ts`: how close the corrected counts come, and how
 * often their range holds, on labelled businesses whose reviews the rates were not measured on, without
 * the test split. Every dev and train review is classified by a model that never saw it, as for the
 * accuracy table (measure-accuracy.ts: the shipped model for dev, a fold model for each train fold).
 * Each business is one train fold or the dev split (370 to 610 reviews), then two of them together
 * (740 to 980): its counts are corrected with rates measured on all the other reviews, as the build
 * corrects a business's counts with rates measured on the corpus, and compared with its labels.
 *
 * Printed, over the figures with at least 10 true reviews, by part (mentions, positive, negative): how
 * many the raw count and the estimate put within 10% (or 3 reviews), their mean absolute and mean
 * signed error, and how many ranges hold the truth. About a minute: five trainings.
 */
import { readFileSync } from 'node:fs';
import { compileAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import type { AspectAccuracyTable } from '../../core/insights/aspect-accuracy.ts';
import { COUNT_CLASSES } from '../../core/insights/count-estimate.ts';
import { DEFAULT_ASPECTS_FILE } from '../../core/content/load-content.ts';
import { AspectConfigSchema } from '../../core/schemas/aspect-config.ts';
import type { Polarity } from '../../core/schemas/aspects.ts';
import { evaluateFoundCounts, isClose, MIN_TRUTH } from './evaluate-counts.ts';
import type { CountFigure } from './evaluate-counts.ts';
import { loadCorpusTechnicians } from './load-corpus.ts';
import { classifyHeldOut, tabulateConfusion } from './measure-accuracy.ts';
import type { HeldOutReview } from './measure-accuracy.ts';

const config = AspectConfigSchema.parse(JSON.parse(readFileSync(DEFAULT_ASPECTS_FILE, 'utf8')));
const technicians = loadCorpusTechnicians();
const held = classifyHeldOut({ model: withTechnicians(compileAspectModel(config), technicians), config, technicians });

type Fold = HeldOutReview['fold'];
const designs: { name: string; businesses: Fold[][] }[] = [
  { name: 'one fold or dev', businesses: [[0], [1], [2], [3], [4], ['dev']] },
  { name: 'two of them', businesses: [[0, 1], [2, 3], [4, 'dev'], [1, 2], [3, 4], [0, 'dev']] },
];

const toMentions = (classes: readonly number[]) =>
  classes.flatMap((c, a) => (c === 0 ? [] : [{ aspect: held.aspects[a]!, polarity: COUNT_CLASSES[c] as Polarity }]));

for (const design of designs) {
  const figures: CountFigure[] = [];
  for (const folds of design.businesses) {
    const inside = held.reviews.filter((r) => folds.includes(r.fold));
    const rest = held.reviews.filter((r) => !folds.includes(r.fold));
    const table: AspectAccuracyTable = { $comment: '', split: 'cross-validation', reviews: rest.length, aspects: tabulateConfusion(held.aspects, rest) };
    const report = evaluateFoundCounts(inside.map((r) => ({ labels: toMentions(r.labelled), found: toMentions(r.found) })), table);
    figures.push(...report.figures.filter((f) => f.truth >= MIN_TRUTH));
  }
  console.log(`\n${design.name}: ${design.businesses.length} businesses, ${figures.length} figures with at least ${MIN_TRUTH} true reviews`);
  console.log('  part       figures   within 10%: raw  estimate   mean abs error: raw  estimate   mean signed: raw  estimate   range holds');
  for (const part of ['mentions', 'positive', 'negative', 'all'] as const) {
    const chosen = figures.filter((f) => part === 'all' || f.part === part);
    const close = (pick: (f: CountFigure) => number) => chosen.filter((f) => isClose(pick(f), f.truth)).length;
    const mean = (error: (f: CountFigure) => number) => `${((100 * chosen.reduce((s, f) => s + error(f), 0)) / chosen.length).toFixed(1)}%`;
    const abs = (pick: (f: CountFigure) => number) => mean((f) => Math.abs(pick(f) - f.truth) / f.truth);
    const signed = (pick: (f: CountFigure) => number) => mean((f) => (pick(f) - f.truth) / f.truth);
    const holds = chosen.filter((f) => f.low <= f.truth && f.truth <= f.high).length;
    console.log(
      `  ${part.padEnd(10)} ${String(chosen.length).padStart(7)}   ${String(close((f) => f.raw)).padStart(14)} ${String(close((f) => f.estimate)).padStart(9)}` +
        `   ${abs((f) => f.raw).padStart(19)} ${abs((f) => f.estimate).padStart(9)}   ${signed((f) => f.raw).padStart(16)} ${signed((f) => f.estimate).padStart(9)}   ${String(holds).padStart(11)}`,
    );
  }
}
