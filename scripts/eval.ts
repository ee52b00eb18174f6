/**
 * `npm run eval`: accuracy of the insights analyzer on the hand-labelled sentences in
 * tests/fixtures/insights-eval/, next to the whole-sentence lexicon baseline measured in the same run.
 * Options: `--errors` lists every miss; `--json FILE` also writes the report as JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAspectModel } from '../core/insights/aspect-model.ts';
import { EvalSetSchema, evaluateModel } from '../core/insights/evaluate.ts';
import type { EvalReport, EvalSentence } from '../core/insights/evaluate.ts';

const root = join(import.meta.dirname, '..');
const fixtures = join(root, 'tests/fixtures/insights-eval');
const args = process.argv.slice(2);

const parsedModel = parseAspectModel(JSON.parse(readFileSync(join(root, 'content/aspects.json'), 'utf8')));
if (!parsedModel.ok) {
  console.error('content/aspects.json is invalid:');
  for (const issue of parsedModel.issues) console.error(`  ${issue.path.join('.')}: ${issue.message}`);
  process.exit(1);
}
const model = parsedModel.model;

function readSet(name: string): EvalSentence[] {
  return EvalSetSchema.parse(JSON.parse(readFileSync(join(fixtures, `sentences-${name}.json`), 'utf8')));
}
const dev = readSet('dev');
const heldOut = [...readSet('test'), ...readSet('test2')];
const reports: [string, EvalReport][] = [
  ['dev (tuned on)', evaluateModel(dev, model)],
  ['held out (test + test2, never tuned on)', evaluateModel(heldOut, model)],
  ['all', evaluateModel([...dev, ...heldOut], model)],
];

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const f2 = (x: number) => x.toFixed(3);
for (const [name, r] of reports) {
  console.log(`\n== ${name}: ${r.sentences} sentences, ${r.labels} labelled aspects ==`);
  console.log(
    `aspect detection   precision ${pct(r.detection.precision)}  recall ${pct(r.detection.recall)}  F1 ${f2(r.detection.f1)}` +
      `  (${r.detection.true_positives} of ${r.labels} found, ${r.detection.detected} detected)`,
  );
  console.log(`aspect polarity on the ${r.system.pairs} detected labelled aspects:`);
  console.log('  method                              accuracy  macro-F1   F1 pos  F1 neu  F1 neg');
  for (const [label, m] of [
    ['aspect-scoped (this system)', r.system],
    ['whole-sentence AFINN (baseline)', r.baseline],
    ['always positive', r.always_positive],
  ] as const) {
    const c = m.classes;
    console.log(
      `  ${label.padEnd(34)}  ${pct(m.accuracy).padStart(7)}  ${f2(m.macro_f1).padStart(8)}  ${f2(c.positive.f1).padStart(7)} ${f2(c.neutral.f1).padStart(7)} ${f2(c.negative.f1).padStart(7)}`,
    );
  }
  console.log('  by phenomenon (system / baseline accuracy):');
  for (const t of r.by_tag) {
    console.log(`    ${t.tag.padEnd(18)} ${String(t.pairs).padStart(4)} pairs  ${pct(t.system_accuracy).padStart(6)} / ${pct(t.baseline_accuracy)}`);
  }
}

const [, all] = reports[reports.length - 1] ?? [];
if (all !== undefined && args.includes('--errors')) {
  console.log('\nmisses:');
  for (const e of all.errors) console.log(`  ${e.id} ${e.aspect}: expected ${e.expected}, got ${e.predicted} — ${e.text}`);
}
const jsonPath = args[args.indexOf('--json') + 1];
if (args.includes('--json') && jsonPath !== undefined) {
  writeFileSync(jsonPath, JSON.stringify(Object.fromEntries(reports), null, 2) + '\n');
}
