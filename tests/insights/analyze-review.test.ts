import { describe, expect, it } from 'vitest';
import { analyzeReview, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { ReviewAspectSchema, type Polarity } from '../../core/schemas/aspects.ts';
import { compileAspectModel, DEFAULT_LEARNED_WEIGHTS } from '../../core/insights/aspect-model.ts';
import { LearnedWeightsSchema } from '../../core/insights/learned-model.ts';
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
    const config = AspectConfigSchema.parse(readJson('core/insights/default-aspects.json'));
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

  it('keeps a rated review to the rules for an aspect the learned layer has no weights for', () => {
    const config = AspectConfigSchema.parse(readJson('core/insights/default-aspects.json'));
    config.aspects.push({ id: 'warranty', label: 'Warranty', terms: ['warranty'], weak_terms: [], opinions: { void: -2 } });
    const edited = compileAspectModel(config);
    expect(polaritiesOf(analyzeReview('They said the warranty was void.', edited, 5))).toMatchObject({ warranty: 'negative' });
  });
});

const polaritiesOf = (aspects: { aspect: string; polarity: Polarity }[]) => Object.fromEntries(aspects.map((m) => [m.aspect, m.polarity]));

describe('analyzeReview with the rating (the failure kinds of realistic reviews, issue 11)', () => {
  it.each<[string, string, number, Record<string, Polarity>]>([
    ['quote against bill, no opinion word', 'They quoted $350 over the phone. Final bill was $1,140.', 2, { price: 'negative' }],
    ['arrival against the window', 'Showed up at 4:45 for an 8-12 window.', 2, { punctuality: 'negative' }],
    ['a duration', 'Took two weeks for a flapper.', 1, { speed: 'negative' }],
    ['repeat visits', 'They came back 3 times for the same leak and it still drips.', 1, { quality: 'negative' }],
    ['a technician of business.json praised by name', 'Kevin was awesome!', 5, { professionalism: 'positive' }],
    ["\"didn't call\"", "Left two messages about the warranty and nobody called back. They just didn't call.", 1, { communication: 'negative' }],
    ['heat back on, in an hour', 'Got our heat back on in an hour.', 5, { quality: 'positive', speed: 'positive' }],
    ['"honestly" as a discourse marker, slang', 'Honestly, Luis is the man.', 5, { professionalism: 'positive' }],
    ['the problem is not the company; an idiom', 'We had a slow drain in the basement. Fixed in a jiffy.', 5, { quality: 'positive', speed: 'positive' }],
    ['water pressure is not sales pressure', 'Fixed our water pressure problem, the new valve works great.', 5, { quality: 'positive' }],
    ['an idiom for price', 'They nickel and dimed us on every little thing.', 2, { price: 'negative' }],
    ['sarcasm', 'Great, another $400 "diagnostic fee" for nothing.', 1, { price: 'negative' }],
    ['a mixed 4-star review', 'Great tech, but the price was outrageous.', 4, { professionalism: 'positive', price: 'negative' }],
    ['slang for a person', 'Priya is an angel.', 5, { professionalism: 'positive' }],
    ['a demo error: the office unreachable', 'Getting a straight answer from the office was impossible.', 1, { communication: 'negative' }],
    ['a demo error: inflated prices', 'The prices are incredibly inflated.', 1, { price: 'negative' }],
  ])('%s', (_name, text, rating, expected) => {
    expect(polaritiesOf(analyzeReview(text, model, rating))).toEqual(expected);
  });

  it('a demo error: "late at night" is not lateness', () => {
    // "had someone out first thing" may also count as scheduling; what matters is no late arrival.
    const found = polaritiesOf(analyzeReview('They answered the phone late at night and had someone out first thing.', model, 5));
    expect(found).toMatchObject({ communication: 'positive' });
    expect(found).not.toHaveProperty('punctuality');
  });

  it('reads a factual mention by the rating, and lets clear words overturn it', () => {
    expect(polaritiesOf(analyzeReview('The repair took about three hours.', model, 5))).toEqual({ speed: 'positive' });
    expect(polaritiesOf(analyzeReview('The repair took about three hours.', model, 1))).toEqual({ speed: 'negative' });
    expect(polaritiesOf(analyzeReview('Kevin replaced the capacitor and the AC works.', model, 1))).toEqual({
      professionalism: 'positive',
      quality: 'positive',
    });
  });

  it('gives each aspect the evidence that decided it, as offsets into the text', () => {
    const text = 'Great tech, but the price was outrageous.';
    const quoted = analyzeReview(text, model, 4).map((a) => [a.aspect, a.evidence.map((e) => text.slice(e.start, e.end))]);
    expect(quoted).toEqual([
      ['professionalism', ['Great', 'tech']],
      ['price', ['price', 'outrageous']],
    ]);
    const inferred = 'Showed up at 4:45 for an 8-12 window.';
    const [punctuality] = analyzeReview(inferred, model, 2);
    expect(punctuality?.evidence.length).toBeGreaterThan(0);
    for (const e of punctuality?.evidence ?? []) expect(e.field).toBe('text');
  });
});

describe('the shipped learned weights', () => {
  it('are what their schema accepts, unchanged (the build reads them without parsing)', () => {
    expect(LearnedWeightsSchema.parse(DEFAULT_LEARNED_WEIGHTS)).toEqual(DEFAULT_LEARNED_WEIGHTS);
  });
});
