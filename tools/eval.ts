/**
 * `npm run eval`: accuracy of the insights analyzer.
 *
 * 1. The realistic review corpus (tools/insights-corpus/), per split: train and dev (tuned on)
 *    and the held-out test split (never tuned on), with the star baseline on the same pairs and the
 *    targets of tests/insights/corpus-targets.test.ts.
 * 2. The 408 hand-labelled sentences (tools/insights-eval/), beside whole-sentence AFINN.
 *
 * 3. The measured error per aspect on the dev split and the cross-fitted train split, written to
 *    core/insights/aspect-accuracy.json (the table the build corrects counts with), and the corrected counts checked on the test split:
 *    each aspect's count error, raw and estimated, and how often the 95% range holds the true count.
 *
 * Options: `--errors train|dev` lists every miss of that split (never of test: its reviews are not
 * looked at while tuning); `--json FILE` also writes the reports as JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, getAnalysisText } from '../core/insights/analyze-review.ts';
import { parseAspectModel, withTechnicians } from '../core/insights/aspect-model.ts';
import type { AspectModel } from '../core/insights/aspect-model.ts';
import { EvalSetSchema, evaluateModel, POLARITIES } from './insights-eval/evaluate.ts';
import type { EvalReport, EvalSentence, PolarityMetrics } from './insights-eval/evaluate.ts';
import { evaluateReviews } from './insights-corpus/evaluate-reviews.ts';
import type { ReviewEvalReport } from './insights-corpus/evaluate-reviews.ts';
import { CORPUS_TARGETS, checkCorpusTargets } from './insights-corpus/targets.ts';
import { loadCorpusSplit, loadCorpusTechnicians } from './insights-corpus/load-corpus.ts';
import { DEFAULT_ASPECTS_FILE } from '../core/content/load-content.ts';
import { AspectConfigSchema } from '../core/schemas/aspect-config.ts';
import { CORPUS_SPLITS } from './insights-corpus/split.ts';
import { evaluateCounts, MIN_TRUTH } from './insights-corpus/evaluate-counts.ts';
import type { CountEvalReport } from './insights-corpus/evaluate-counts.ts';
import { ACCURACY_FILE, writeAspectAccuracy } from './insights-corpus/measure-accuracy.ts';
import type { CorpusSplit } from './insights-corpus/split.ts';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const errorsOf = args.includes('--errors') ? args[args.indexOf('--errors') + 1] : undefined;
if (errorsOf !== undefined && errorsOf !== 'train' && errorsOf !== 'dev') {
  console.error('--errors takes train or dev: the test split is scored, never read');
  process.exit(2);
}

const aspectsJson: unknown = JSON.parse(readFileSync(DEFAULT_ASPECTS_FILE, 'utf8'));
const parsedModel = parseAspectModel(aspectsJson);
if (!parsedModel.ok) {
  console.error(`${DEFAULT_ASPECTS_FILE} is invalid:`);
  for (const issue of parsedModel.issues) console.error(`  ${issue.path.join('.')}: ${issue.message}`);
  process.exit(1);
}
const technicians = loadCorpusTechnicians();
const model = withTechnicians(parsedModel.model, technicians);

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);

const corpus: Record<string, ReviewEvalReport> = {};
for (const split of CORPUS_SPLITS) {
  const reviews = loadCorpusSplit(split);
  const report = evaluateReviews(reviews, (review) => analyzeCorpusReview(review, model));
  corpus[split] = report;
  printCorpusReport(split, report);
  if (split === errorsOf) printErrors(report, reviews);
}
const test = corpus.test;
if (test !== undefined) {
  console.log('\n== targets on the held-out test split ==');
  for (const check of checkCorpusTargets(test)) {
    console.log(`  ${check.ok ? 'met    ' : 'NOT MET'}  ${check.name.padEnd(52)} ${check.actual}`);
  }
}

const table = writeAspectAccuracy({ model, config: AspectConfigSchema.parse(aspectsJson), technicians });
console.log(`\n== measured error per aspect (${table.split}, ${table.reviews} reviews): written to ${ACCURACY_FILE} ==`);
const counts: Record<string, CountEvalReport> = {};
for (const split of ['dev', 'test'] as const) {
  counts[split] = evaluateCounts(loadCorpusSplit(split), (review) => analyzeCorpusReview(review, model), table);
  printCountReport(split, counts[split]);
}

const sentences = evaluateSentenceSets(model);
for (const [name, report] of Object.entries(sentences)) printSentenceReport(name, report);

const jsonPath = args[args.indexOf('--json') + 1];
if (args.includes('--json') && jsonPath !== undefined) {
  const strip = <T extends { errors: unknown }>(r: T) => ({ ...r, errors: undefined });
  const out = { corpus: Object.fromEntries(Object.entries(corpus).map(([k, r]) => [k, strip(r)])), targets: CORPUS_TARGETS, counts, sentences };
  writeFileSync(jsonPath, JSON.stringify(out, null, 2) + '\n');
}

function analyzeCorpusReview(review: { title: string | null; text: string; rating: number }, aspectModel: AspectModel) {
  return analyzeReview(getAnalysisText(review), aspectModel, review.rating);
}

function printCorpusReport(split: CorpusSplit, r: ReviewEvalReport) {
  const role = split === 'test' ? 'held out, never tuned on' : 'tuned on';
  console.log(`\n== corpus ${split} (${role}): ${r.reviews} reviews, ${r.labels} labelled aspects ==`);
  const d = r.detection;
  console.log(
    `aspect detection   precision ${pct(d.precision)}  recall ${pct(d.recall)}  F1 ${f3(d.f1)}` +
      `  (${d.true_positives} of ${d.labels} found, ${d.detected} detected)`,
  );
  console.log(`every aspect and polarity right: ${pct(r.exact_reviews)} of reviews`);
  console.log(`reviews with a labelled complaint given a negative aspect: ${pct(r.complaints_flagged)}`);
  console.log(`polarity on the ${r.system.pairs} detected labelled aspects:`);
  printPolarityTable([
    ['analyzer', r.system],
    ['star baseline (4-5 +, 3 =, 1-2 -)', r.star_baseline],
  ]);
  console.log('  confusion (rows: labelled, columns: analyzer | star baseline):');
  console.log(`    ${''.padEnd(9)} ${POLARITIES.map((p) => p.slice(0, 3).padStart(5)).join('')}   | ${POLARITIES.map((p) => p.slice(0, 3).padStart(5)).join('')}`);
  for (const expected of POLARITIES) {
    const row = (m: PolarityMetrics) => POLARITIES.map((p) => String(m.confusion[expected][p]).padStart(5)).join('');
    console.log(`    ${expected.padEnd(9)} ${row(r.system)}   | ${row(r.star_baseline)}`);
  }
  if (split === 'test') return;
  console.log('  by aspect: precision / recall / polarity accuracy');
  for (const a of r.by_aspect) {
    console.log(`    ${a.aspect.padEnd(16)} ${pct(a.precision).padStart(6)} / ${pct(a.recall).padStart(6)} / ${pct(a.polarity_accuracy).padStart(6)}  (${a.labels} labelled)`);
  }
}

function printCountReport(split: 'dev' | 'test', r: CountEvalReport) {
  const role = split === 'test' ? 'held out: the rates were measured on dev and train' : 'part of the rates were measured on it';
  console.log(`\n== corrected counts, corpus ${split} (${role}): ${r.reviews} reviews as one business ==`);
  console.log('  aspect           part      true    raw   error   estimate (95% range)   error');
  const err = (value: number, truth: number) => (truth === 0 ? '' : `${value >= truth ? '+' : ''}${(((value - truth) / truth) * 100).toFixed(0)}%`);
  for (const f of r.figures) {
    const range = `${f.estimate} (${f.low}–${f.high})`;
    const held = f.low <= f.truth && f.truth <= f.high ? ' ' : '!';
    console.log(
      `  ${f.aspect.padEnd(16)} ${f.part.padEnd(8)} ${String(f.truth).padStart(5)} ${String(f.raw).padStart(6)} ${err(f.raw, f.truth).padStart(7)}   ${range.padEnd(20)}${held} ${err(f.estimate, f.truth).padStart(6)}`,
    );
  }
  const s = r.summary;
  console.log(`  figures with at least ${MIN_TRUTH} true reviews: ${s.figures}`);
  console.log(`  within 10% (or 3 reviews): raw ${s.raw_close} of ${s.figures}, estimate ${s.estimate_close} of ${s.figures}`);
  console.log(`  mean absolute error: raw ${pct(s.raw_mean_abs_error)}, estimate ${pct(s.estimate_mean_abs_error)}`);
  console.log(`  95% range holds the true count: ${s.range_holds} of ${s.figures} (${pct(s.figures === 0 ? 0 : s.range_holds / s.figures)})`);
}

function printPolarityTable(rows: [string, PolarityMetrics][]) {
  console.log('  method                              accuracy  macro-F1   F1 pos  F1 neu  F1 neg');
  for (const [label, m] of rows) {
    const c = m.classes;
    console.log(
      `  ${label.padEnd(34)}  ${pct(m.accuracy).padStart(7)}  ${f3(m.macro_f1).padStart(8)}  ${f3(c.positive.f1).padStart(7)} ${f3(c.neutral.f1).padStart(7)} ${f3(c.negative.f1).padStart(7)}`,
    );
  }
}

function printErrors(report: ReviewEvalReport, reviews: { id: string; rating: number; title: string | null; text: string }[]) {
  const byId = new Map(reviews.map((r) => [r.id, r]));
  console.log(`\nmisses (${report.errors.length}):`);
  for (const e of report.errors) {
    const review = byId.get(e.id);
    const text = review === undefined ? '' : getAnalysisText(review).replaceAll('\n', ' / ');
    console.log(`  ${e.id} ${review?.rating}★ ${e.aspect}: expected ${e.expected}, got ${e.predicted} — ${text}`);
  }
}

function evaluateSentenceSets(aspectModel: AspectModel): Record<string, EvalReport> {
  const fixtures = join(root, 'tools/insights-eval');
  const readSet = (name: string): EvalSentence[] =>
    EvalSetSchema.parse(JSON.parse(readFileSync(join(fixtures, `sentences-${name}.json`), 'utf8')));
  const dev = readSet('dev');
  const heldOut = [...readSet('test'), ...readSet('test2')];
  return {
    'sentences dev (tuned on)': evaluateModel(dev, aspectModel),
    'sentences held out (test + test2, never tuned on)': evaluateModel(heldOut, aspectModel),
    'sentences all': evaluateModel([...dev, ...heldOut], aspectModel),
  };
}

function printSentenceReport(name: string, r: EvalReport) {
  console.log(`\n== ${name}: ${r.sentences} sentences, ${r.labels} labelled aspects ==`);
  console.log(
    `aspect detection   precision ${pct(r.detection.precision)}  recall ${pct(r.detection.recall)}  F1 ${f3(r.detection.f1)}` +
      `  (${r.detection.true_positives} of ${r.labels} found, ${r.detection.detected} detected)`,
  );
  console.log(`aspect polarity on the ${r.system.pairs} detected labelled aspects:`);
  printPolarityTable([
    ['aspect-scoped (this system)', r.system],
    ['whole-sentence AFINN (baseline)', r.baseline],
    ['always positive', r.always_positive],
  ]);
}
