/**
 * How a corrected count reads, in one place for the FAQ, the summary and the pages: "about 48
 * reviews (40–57)" when the count has an estimate, the plain count when it has none (too few reviews,
 * or an aspect without measured accuracy).
 */
import type { Plural } from '../i18n/catalogue.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';
import type { CountEstimate } from '../schemas/insights.ts';

export type CountRange = NonNullable<CountEstimate>['mentions'];

/**
 * "about 48 reviews (40–57)", or "48 reviews" without an estimate; `noun` is the catalogue's plural
 * (`t.m.units.review`). `inline` writes the range after a comma: "about 48 reviews, 40–57".
 */
export function describeEstimatedCount(
  raw: number,
  range: CountRange | null | undefined,
  noun: Plural,
  t: Translator = createTranslator(),
  { inline = false }: { inline?: boolean } = {},
): string {
  if (range === null || range === undefined) return t.plural(noun, raw);
  return t.fill(inline ? t.m.insights.estimatedInline : t.m.insights.estimated, { count: t.plural(noun, range.value), range: describeRange(range, t) });
}

/** "40–57", or "48" when the range is a single number. */
export function describeRange(range: CountRange, t: Translator = createTranslator()): string {
  return range.low === range.high ? t.count(range.low) : t.fill(t.m.insights.range, { low: t.count(range.low), high: t.count(range.high) });
}

/** The estimate's value, or the raw count without one. */
export function pickEstimate(raw: number, range: CountRange | null | undefined): number {
  return range?.value ?? raw;
}
