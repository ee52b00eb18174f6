/**
 * The demo's Spanish reviews are read by the insights through Google's English translation (issue 43
 * items 3 and 6), so each English phrase of the generator's Spanish bank must say its aspect in words the
 * analyser knows, with the opinion the Spanish has; and the phrases around them must say none.
 */
import { describe, expect, it } from 'vitest';
import { analyzeReview } from '../../core/insights/analyze-review.ts';
import { SERVICES } from '../../tools/content-generator/business.ts';
import * as es from '../../tools/content-generator/vocabulary/spanish.ts';
import type { Pair } from '../../tools/content-generator/vocabulary/spanish.ts';
import { loadDefaultModel } from '../insights/load-fixtures.ts';

const model = loadDefaultModel();
const SAMPLE: Record<string, string> = {
  T: 'The technician', he: 'he', his: 'his', thing: 'the water heater', price: '$450', company: 'Riverbend', area: 'Maryville',
  wait: 'two hours', days: 'a week', quick: 'an hour', day: 'Sunday',
};
/** The English side as a sentence, its slots filled with sample values. */
const english = ([, en]: Pair) => {
  const text = en.replace(/^R\|/, '').replace(/\{(\w+)\}/g, (_, slot: string) => SAMPLE[slot]!);
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!]$/.test(text) ? '' : '.'}`;
};
const read = (text: string, rating: number) => Object.fromEntries(analyzeReview(text, model, rating).map((a) => [a.aspect, a.polarity]));
const clauses = (bank: Record<string, readonly Pair[]>) => Object.entries(bank).flatMap(([aspect, pairs]) => pairs.map((pair) => [aspect, english(pair)] as const));

describe('the Spanish reviews’ English translations', () => {
  // The rating the analyser is given is the review's: praise comes in good reviews, complaints in bad ones.
  it.each(clauses(es.PRAISE_ES))('praise of %s: "%s" reads as positive', (aspect, text) => {
    expect(read(text, 5)[aspect]).toBe('positive');
  });

  it.each(clauses(es.COMPLAINTS_ES))('complaint about %s: "%s" reads as negative', (aspect, text) => {
    expect(read(text, 1)[aspect]).toBe('negative');
  });

  it.each(clauses(es.MILD_ES))('gripe about %s in a 3-star review: "%s" reads as negative', (aspect, text) => {
    expect(read(text, 3)[aspect]).toBe('negative');
  });

  it.each(Object.entries(es.SHORT_PRAISE_ES))('"%s" in a one-line list of praise reads as positive', (aspect, pairs) => {
    for (const [, word] of pairs!) {
      const others = aspect === 'speed' ? 'Honest, clean' : 'Fast, honest';
      expect(read(`${others} and ${word}!`, 5)[aspect], word).toBe('positive');
    }
  });

  it.each([...es.SHORT_REVIEWS_ES, ...es.GENERAL_OPENERS_ES, ...Object.values(es.OPENERS_ES).flat(), ...Object.values(es.CLOSERS_ES).flat()].map((pair) => [english(pair)]))(
    'the frame "%s" says no aspect',
    (text) => {
      expect(read(text, 5)).toEqual({});
    },
  );

  it('gives every service its equipment and an opener, and every aspect a clause for any job', () => {
    for (const bank of [es.PRAISE_ES, es.MILD_ES, es.COMPLAINTS_ES]) {
      for (const [aspect, pairs] of Object.entries(bank)) expect(pairs.some(([spanish]) => !spanish.startsWith('R|')), aspect).toBe(true);
    }
    const services = SERVICES.map((s) => s.id).sort();
    expect(Object.keys(es.THINGS_ES).sort()).toEqual(services);
    expect(Object.keys(es.OPENERS_ES).sort()).toEqual(services);
  });
});
