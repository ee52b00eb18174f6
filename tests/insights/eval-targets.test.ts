import { describe, expect, it } from 'vitest';
import { EvalSetSchema, evaluateModel } from '../../tools/insights-eval/evaluate.ts';
import { loadDefaultModel, readJson } from './load-fixtures.ts';

const model = loadDefaultModel();
const readSet = (name: string) => EvalSetSchema.parse(readJson(`tools/insights-eval/sentences-${name}.json`));
const dev = readSet('dev');
const heldOut = [...readSet('test'), ...readSet('test2')];

describe('evaluateModel on the hand-labelled sentences', () => {
  it('has at least 300 sentences, many with two aspects of opposite polarity', () => {
    const all = [...dev, ...heldOut];
    expect(all.length).toBeGreaterThanOrEqual(300);
    expect(all.filter((s) => s.tags.includes('opposite-polarity')).length).toBeGreaterThanOrEqual(35);
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    const aspectIds = new Set(model.aspects.map((a) => a.id));
    expect(all.flatMap((s) => s.labels).filter((l) => !aspectIds.has(l.aspect))).toEqual([]);
  });

  it('meets the targets on the whole set: polarity accuracy >= 85%, macro-F1 >= 0.75, well ahead of the baseline', () => {
    const report = evaluateModel([...dev, ...heldOut], model);
    expect(report.system.accuracy).toBeGreaterThanOrEqual(0.85);
    expect(report.system.macro_f1).toBeGreaterThanOrEqual(0.75);
    expect(report.system.accuracy - report.baseline.accuracy).toBeGreaterThanOrEqual(0.3);
    expect(report.system.macro_f1 - report.baseline.macro_f1).toBeGreaterThanOrEqual(0.3);
    expect(report.detection.precision).toBeGreaterThanOrEqual(0.85);
    expect(report.detection.recall).toBeGreaterThanOrEqual(0.85);
  });

  it('holds up on the sentences it was never tuned on', () => {
    const report = evaluateModel(heldOut, model);
    expect(report.system.accuracy).toBeGreaterThanOrEqual(0.85);
    expect(report.system.macro_f1).toBeGreaterThanOrEqual(0.75);
    expect(report.system.accuracy).toBeGreaterThan(report.always_positive.accuracy + 0.25);
  });

  it('handles contrast where the whole-sentence baseline cannot', () => {
    const report = evaluateModel([...dev, ...heldOut], model);
    const contrast = report.by_tag.find((t) => t.tag === 'opposite-polarity');
    expect(contrast?.system_accuracy).toBeGreaterThanOrEqual(0.9);
    expect(contrast?.baseline_accuracy).toBeLessThan(0.5);
  });
});
