import { describe, expect, it } from 'vitest';
import { analyzeReview, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { ReviewAspectSchema, type Polarity } from '../../core/schemas/aspects.ts';
import { compileAspectModel } from '../../core/insights/aspect-model.ts';
import { AspectConfigSchema } from '../../core/schemas/aspect-config.ts';
import { GENERAL_LEXICON } from '../../core/insights/lexicon.ts';
import { loadDefaultModel, readJson } from './load-fixtures.ts';

const model = loadDefaultModel();
const polarities = (text: string) => Object.fromEntries(analyzeReview(text, model).map((m) => [m.aspect, m.polarity]));
const scoreOf = (text: string, aspect: string) => analyzeReview(text, model).find((m) => m.aspect === aspect)?.score;

describe('analyzeReview', () => {
  it.each<[string, string, Record<string, Polarity>]>([
    ['contrast: "but" splits opposite opinions', 'The tech was great but the price was outrageous.', { professionalism: 'positive', price: 'negative' }],
    ['contrast: a concessive clause', 'Although the price was high, the work was excellent.', { price: 'negative', quality: 'positive' }],
    ['contrast: the same aspect on both sides', 'Not cheap, but worth every penny.', { price: 'positive' }],
    ['negation: not on time', 'They were not on time.', { punctuality: 'negative' }],
    ['negation: never called back', 'Nobody ever called me back after the estimate.', { communication: 'negative' }],
    ["negation: didn't clean up", "He didn't clean up after himself.", { cleanliness: 'negative' }],
    ['negation of a negative', 'Absolutely no mess left behind and no hidden fees.', { cleanliness: 'positive', price: 'positive', honesty: 'positive' }],
    ['negation: counterfactual', 'The communication could have been better.', { communication: 'negative' }],
    ['comparative: cheaper than', 'Way cheaper than the last company we used.', { price: 'positive' }],
    ['comparative: higher than the estimate', 'The price ended up higher than the estimate.', { price: 'negative' }],
    ['comparative: better than the last company', 'Much better work than the last plumber we hired.', { quality: 'positive' }],
    ['comparative: twice as long', 'Took twice as long as promised.', { speed: 'negative' }],
    ['two aspects, same polarity', 'The electrician was on time and did excellent work.', { punctuality: 'positive', quality: 'positive' }],
    ['two aspects, opposite polarity, no conjunction', 'Friendly guys, terrible workmanship.', { professionalism: 'positive', quality: 'negative' }],
    ['a factual mention is neutral', 'The price was $180 for the diagnostic.', { price: 'neutral' }],
    ['general praise names no aspect', 'Highly recommend this company!', {}],
  ])('%s', (_name, text, expected) => {
    expect(polarities(text)).toEqual(expected);
  });

  it('strengthens an opinion after an intensifier and weakens it after a downtoner', () => {
    const plain = scoreOf('The technician was rude.', 'professionalism') ?? 0;
    const intensified = scoreOf('The technician was extremely rude.', 'professionalism') ?? 0;
    const softened = scoreOf('The technician was a bit rude.', 'professionalism') ?? 0;
    expect(plain).toBeLessThan(0);
    expect(intensified).toBeLessThan(plain);
    expect(softened).toBeLessThan(0);
    expect(softened).toBeGreaterThan(plain);
  });

  it('scores domain words that the general lexicon leaves neutral', () => {
    for (const word of ['punctual', 'overcharged', 'no-show', 'tidy', 'overpriced', 'knowledgeable']) {
      expect(GENERAL_LEXICON[word]).toBeUndefined();
    }
    expect(polarities('Punctual, tidy and knowledgeable, but overpriced.')).toEqual({
      punctuality: 'positive',
      cleanliness: 'positive',
      expertise: 'positive',
      price: 'negative',
    });
    expect(polarities('A no-show, twice.')).toEqual({ punctuality: 'negative' });
  });

  it('sums the mentions of an aspect over the review into one entry per aspect, in the aspect set order', () => {
    const result = analyzeReview('The price was fair. Honest people. The price was also lower than the other quotes.', model);
    expect(result.map((m) => m.aspect)).toEqual(['price', 'honesty']);
    for (const mention of result) expect(ReviewAspectSchema.parse(mention)).toEqual(mention);
  });

  it('reads the title as a sentence of its own', () => {
    expect(getAnalysisText({ title: 'Overpriced', text: 'The tech was polite.' })).toBe('Overpriced\nThe tech was polite.');
    expect(getAnalysisText({ title: null, text: 'Fine.' })).toBe('Fine.');
    expect(polarities(getAnalysisText({ title: 'Overpriced', text: 'The tech was polite.' }))).toEqual({
      professionalism: 'positive',
      price: 'negative',
    });
  });

  it('gives the same result for the same text', () => {
    const text = 'Mike showed up right on time and was super polite, but the bill was steep.';
    expect(analyzeReview(text, model)).toEqual(analyzeReview(text, loadDefaultModel()));
  });

  it('follows an owner who adds an aspect and domain words to the aspect set', () => {
    const config = AspectConfigSchema.parse(readJson('content/aspects.json'));
    config.aspects.push({
      id: 'warranty',
      label: 'Warranty',
      terms: ['warranty', 'guarantee'],
      weak_terms: [],
      opinions: { void: -2 },
    });
    config.lexicon['janky'] = -2;
    const edited = compileAspectModel(config);
    expect(analyzeReview('The warranty was excellent.', edited)).toEqual([
      expect.objectContaining({ aspect: 'warranty', polarity: 'positive' }),
    ]);
    expect(analyzeReview('Then they said the guarantee was void.', edited)).toEqual([
      expect.objectContaining({ aspect: 'warranty', polarity: 'negative' }),
    ]);
    expect(analyzeReview('The workmanship was janky.', edited)).toEqual([
      expect.objectContaining({ aspect: 'quality', polarity: 'negative' }),
    ]);
  });
});
