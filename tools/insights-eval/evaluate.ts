/**
 * Measures the analyzer on the hand-labelled sentences beside this file (`npm run eval`), against a
 * baseline of whole-sentence lexicon scoring measured on the same aspects.
 *
 * - Aspect detection: precision and recall of (sentence, aspect) pairs.
 * - Aspect polarity: accuracy and macro-F1 (positive/neutral/negative) over the pairs that are both
 *   labelled and detected, so detection errors do not count twice.
 * - Baseline: the general lexicon alone (AFINN-165 summed over the whole sentence, a word right after a
 *   negator flipped, as the `sentiment` package does), that one score given to every detected aspect.
 */
import { z } from 'zod';
import type { AspectModel } from '../../core/insights/aspect-model.ts';
import { PolaritySchema, type Polarity } from '../../core/schemas/aspects.ts';
import { analyzeReview, toPolarity, normalizeScore } from '../../core/insights/analyze-review.ts';
import { GENERAL_LEXICON } from '../../core/insights/lexicon.ts';
import { tokenizeText } from '../../core/insights/tokenize.ts';

export const EvalSentenceSchema = z.strictObject({
  id: z.string().min(1),
  text: z.string().min(1),
  labels: z.array(z.strictObject({ aspect: z.string().min(1), polarity: PolaritySchema })),
  tags: z.array(z.string()),
});
export const EvalSetSchema = z.array(EvalSentenceSchema);

export type EvalSentence = z.infer<typeof EvalSentenceSchema>;

export type ClassMetrics = { precision: number; recall: number; f1: number; support: number };
export type PolarityMetrics = {
  pairs: number;
  correct: number;
  accuracy: number;
  macro_f1: number;
  classes: Record<Polarity, ClassMetrics>;
  /** Counts by expected polarity (rows), then predicted polarity (columns). */
  confusion: Record<Polarity, Record<Polarity, number>>;
};
export type EvalError = {
  id: string;
  text: string;
  aspect: string;
  expected: Polarity | 'not mentioned';
  predicted: Polarity | 'not detected';
};
export type EvalReport = {
  sentences: number;
  labels: number;
  detection: { precision: number; recall: number; f1: number; true_positives: number; detected: number };
  system: PolarityMetrics;
  baseline: PolarityMetrics;
  always_positive: PolarityMetrics;
  by_tag: { tag: string; pairs: number; system_accuracy: number; baseline_accuracy: number }[];
  errors: EvalError[];
};

export const POLARITIES: readonly Polarity[] = ['positive', 'neutral', 'negative'];

export function evaluateModel(sentences: EvalSentence[], model: AspectModel): EvalReport {
  const pairs: { expected: Polarity; system: Polarity; baseline: Polarity; tags: string[] }[] = [];
  const errors: EvalError[] = [];
  let detected = 0;
  let labels = 0;
  for (const sentence of sentences) {
    const predicted = new Map(analyzeReview(sentence.text, model).map((m) => [m.aspect, m.polarity]));
    const baseline = scoreBaseline(sentence.text);
    detected += predicted.size;
    labels += sentence.labels.length;
    const compared = compareLabels(sentence.labels, predicted);
    pairs.push(...compared.found.map((f) => ({ ...f, baseline, tags: sentence.tags })));
    errors.push(...compared.errors.map((e) => ({ id: sentence.id, text: sentence.text, ...e })));
  }
  const truePositives = pairs.length;
  const precision = ratio(truePositives, detected);
  const recall = ratio(truePositives, labels);
  return {
    sentences: sentences.length,
    labels,
    detection: { precision, recall, f1: harmonic(precision, recall), true_positives: truePositives, detected },
    system: measurePolarity(pairs.map((p) => [p.expected, p.system])),
    baseline: measurePolarity(pairs.map((p) => [p.expected, p.baseline])),
    always_positive: measurePolarity(pairs.map((p) => [p.expected, 'positive'])),
    by_tag: measureByTag(pairs),
    errors,
  };
}

/** What one labelled item (a sentence, a review) gets right and wrong, given the aspects found in it. */
export type LabelComparison = {
  /** The labels the analyzer found, with the polarity it gave them. */
  found: { aspect: string; expected: Polarity; system: Polarity }[];
  /** Each label missed or given another polarity (in label order), then each aspect found but not labelled. */
  errors: { aspect: string; expected: Polarity | 'not mentioned'; predicted: Polarity | 'not detected' }[];
};

export function compareLabels(
  labels: readonly { aspect: string; polarity: Polarity }[],
  predicted: ReadonlyMap<string, Polarity>,
): LabelComparison {
  const found: LabelComparison['found'] = [];
  const errors: LabelComparison['errors'] = [];
  for (const label of labels) {
    const system = predicted.get(label.aspect);
    if (system === undefined) {
      errors.push({ aspect: label.aspect, expected: label.polarity, predicted: 'not detected' });
      continue;
    }
    found.push({ aspect: label.aspect, expected: label.polarity, system });
    if (system !== label.polarity) errors.push({ aspect: label.aspect, expected: label.polarity, predicted: system });
  }
  for (const [aspect, polarity] of predicted) {
    if (!labels.some((l) => l.aspect === aspect)) errors.push({ aspect, expected: 'not mentioned', predicted: polarity });
  }
  return { found, errors };
}

/** Accuracy of the analyzer and of the baseline on the pairs carrying each tag, tags in name order. */
export function measureByTag(
  pairs: readonly { expected: Polarity; system: Polarity; baseline: Polarity; tags: readonly string[] }[],
): { tag: string; pairs: number; system_accuracy: number; baseline_accuracy: number }[] {
  const tags = [...new Set(pairs.flatMap((p) => p.tags))].sort();
  return tags.map((tag) => {
    const tagged = pairs.filter((p) => p.tags.includes(tag));
    return {
      tag,
      pairs: tagged.length,
      system_accuracy: ratio(tagged.filter((p) => p.system === p.expected).length, tagged.length),
      baseline_accuracy: ratio(tagged.filter((p) => p.baseline === p.expected).length, tagged.length),
    };
  });
}

/** The baseline's polarity for a whole sentence. */
export function scoreBaseline(text: string): Polarity {
  let sum = 0;
  for (const sentence of tokenizeText(text)) {
    const words = sentence.tokens.map((t) => t.text);
    words.forEach((word, i) => {
      const valence = GENERAL_LEXICON[word];
      if (valence === undefined) return;
      const previous = words[i - 1];
      const negated = previous !== undefined && BASELINE_NEGATORS.has(previous);
      sum += negated ? -valence : valence;
    });
  }
  return toPolarity(normalizeScore(sum));
}

const BASELINE_NEGATORS = new Set([
  'not', 'no', 'never', "don't", 'dont', "can't", 'cant', "won't", 'wont', "isn't", 'isnt', "doesn't", 'doesnt',
  "didn't", 'didnt', "wasn't", 'wasnt', "weren't", "aren't", "couldn't", "wouldn't", "shouldn't",
]);

export function measurePolarity(pairs: [Polarity, Polarity][]): PolarityMetrics {
  const correct = pairs.filter(([expected, actual]) => expected === actual).length;
  const classes = {} as Record<Polarity, ClassMetrics>;
  for (const polarity of POLARITIES) {
    const truePositives = pairs.filter(([e, a]) => e === polarity && a === polarity).length;
    const predicted = pairs.filter(([, a]) => a === polarity).length;
    const support = pairs.filter(([e]) => e === polarity).length;
    const precision = ratio(truePositives, predicted);
    const recall = ratio(truePositives, support);
    classes[polarity] = { precision, recall, f1: harmonic(precision, recall), support };
  }
  // Macro-F1 over the classes present in the labels, so an absent class cannot inflate or sink it.
  const present = POLARITIES.filter((p) => classes[p].support > 0);
  const macro = present.reduce((sum, p) => sum + classes[p].f1, 0) / Math.max(1, present.length);
  const confusion = {} as Record<Polarity, Record<Polarity, number>>;
  for (const expected of POLARITIES) {
    confusion[expected] = { positive: 0, neutral: 0, negative: 0 };
    for (const [e, a] of pairs) if (e === expected) confusion[expected][a]++;
  }
  return { pairs: pairs.length, correct, accuracy: ratio(correct, pairs.length), macro_f1: macro, classes, confusion };
}

export function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

export function harmonic(a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * a * b) / (a + b);
}
