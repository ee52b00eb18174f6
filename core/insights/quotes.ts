/**
 * Representative quotes: for each aspect, the two best positive and two best negative sentences.
 * "Best" prefers, in order: a star rating that agrees with the opinion (a 5-star review for a
 * positive quote), a readable length, a stronger opinion, then the newer review and the smaller id,
 * so the choice is deterministic.
 */
import { toPolarity, normalizeScore } from './analyze-review.ts';
import type { Polarity } from '../schemas/aspects.ts';
import type { AspectModel } from './aspect-model.ts';
import type { AnalyzedReview } from './analyzed-review.ts';
import type { Quote } from '../schemas/insights.ts';

const QUOTES_PER_POLARITY = 2;
const MAX_QUOTE_LENGTH = 240;

type Candidate = { quote: Quote; agrees: boolean; readable: boolean; strength: number };

export function selectQuotes(analyzed: readonly AnalyzedReview[], model: AspectModel): Quote[][] {
  const best = model.aspects.map(() => ({ positive: [] as Candidate[], negative: [] as Candidate[] }));
  for (const item of analyzed) {
    // A quote is the customer's words, never a translation of them.
    if (item.translated) continue;
    for (const [aspect, reviewPolarity] of item.polarities) {
      if (reviewPolarity === 'neutral') continue;
      const slot = best[aspect]?.[reviewPolarity];
      if (slot === undefined) continue;
      let chosen: { start: number; end: number; raw: number } | undefined;
      for (const sentence of item.analysis.sentences) {
        const entry = sentence.aspects.find((a) => a.aspect === aspect);
        if (entry === undefined || toPolarity(normalizeScore(entry.raw)) !== reviewPolarity) continue;
        if (chosen === undefined || Math.abs(entry.raw) > Math.abs(chosen.raw)) chosen = { ...sentence, raw: entry.raw };
      }
      if (chosen === undefined) continue;
      const text = toQuoteText(item.text.slice(chosen.start, chosen.end));
      const { rating } = item.review;
      offer(slot, {
        quote: { review_id: item.review.id, date: item.review.date, rating, polarity: reviewPolarity, text },
        agrees: reviewPolarity === 'positive' ? rating >= 4 : rating <= 2,
        readable: text.length >= 40 && text.length <= 200,
        strength: Math.round(Math.abs(chosen.raw) * 1000),
      });
    }
  }
  return best.map((slots) => [...slots.positive, ...slots.negative].map((c) => c.quote));
}

/** Keeps the list sorted best-first and at most QUOTES_PER_POLARITY long. */
function offer(list: Candidate[], candidate: Candidate): void {
  let at = list.length;
  while (at > 0 && isBetter(candidate, list[at - 1] as Candidate)) at--;
  if (at >= QUOTES_PER_POLARITY) return;
  list.splice(at, 0, candidate);
  if (list.length > QUOTES_PER_POLARITY) list.pop();
}

function isBetter(a: Candidate, b: Candidate): boolean {
  if (a.agrees !== b.agrees) return a.agrees;
  if (a.readable !== b.readable) return a.readable;
  if (a.strength !== b.strength) return a.strength > b.strength;
  if (a.quote.date !== b.quote.date) return a.quote.date > b.quote.date;
  return a.quote.review_id < b.quote.review_id;
}

function toQuoteText(sentence: string): string {
  const text = sentence.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_QUOTE_LENGTH) return text;
  const cut = text.slice(0, MAX_QUOTE_LENGTH - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}…`;
}
