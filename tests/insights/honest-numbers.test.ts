/**
 * The honest-number rules of core/insights/verdicts.ts and the reply figures of responses.ts, each
 * checked as a rule and then on the demo business (480 reviews) and on a small one (the 14-review
 * insights fixture).
 */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { buildInsights } from '../../core/dataset/build-insights.ts';
import { computeInsights } from '../../core/insights/compute-insights.ts';
import { computeResponses } from '../../core/insights/responses.ts';
import { computeWilsonLowerBound, describeReviewCount, findMostComplained, hasTrend, judgeAspect } from '../../core/insights/verdicts.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { DEMO_CONTENT } from '../helpers/site-build.ts';
import { loadDefaultModel, loadFixtureBusiness, loadFixtureReviews } from './load-fixtures.ts';
import { plural, roundStars } from '../../core/text/text-rules.ts';

const loaded = await loadContent(DEMO_CONTENT);
if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
const demoDataset = buildReviewsDataset(loaded.value, createServiceUrls('https://reviews.example.com'));
const demo = buildInsights(loaded.value, demoDataset);
const smallReviews = loadFixtureReviews();
const small = computeInsights({ reviews: smallReviews, model: loadDefaultModel(), business: loadFixtureBusiness() });

describe('judgeAspect', () => {
  it.each([
    [{ mentions: 10, positive: 7, negative: 2 }, null, '70% of 10 is not yet a clear majority'],
    [{ mentions: 100, positive: 74, negative: 20 }, 'strength', '74% of 100 is'],
    [{ mentions: 4, positive: 4, negative: 0 }, null, 'too few mentions'],
    [{ mentions: 30, positive: 5, negative: 24 }, 'concern', 'most of 30 are complaints'],
    [{ mentions: 45, positive: 21, negative: 24 }, null, 'a split is neither'],
  ] as const)('%o → %s (%s)', (stats, verdict, _why) => {
    expect(judgeAspect(stats)).toBe(verdict);
  });

  it('bounds the share from below with the Wilson score interval', () => {
    expect(computeWilsonLowerBound(7, 10)).toBeCloseTo(0.3968, 3);
    expect(computeWilsonLowerBound(0, 0)).toBe(0);
  });
});

describe('the other rules', () => {
  it('draws stars to the nearest half star, one rule for every rating', () => {
    expect([4.24, 4.25, 4.36, 4.4, 4.7, 4.75, 5.2, -1].map(roundStars)).toEqual([4, 4.5, 4.5, 4.5, 4.5, 5, 5, 0]);
  });

  it('writes plurals and says how few reviews a figure rests on', () => {
    expect(plural(1, 'complaint')).toBe('1 complaint');
    expect(plural(1200, 'review')).toBe('1,200 reviews');
    expect(describeReviewCount(3)).toBe('only 3 reviews');
    expect(describeReviewCount(1)).toBe('only 1 review');
    expect(describeReviewCount(24)).toBe('24 reviews');
  });

  it('needs three periods with data for a trend', () => {
    expect(hasTrend([4, null, 5])).toBe(false);
    expect(hasTrend([4, null, 5, 3])).toBe(true);
  });

  it('calls the aspect with most complaints the most frequent complaint, not the one with the highest share', () => {
    const punctuality = { id: 'punctuality', mentions: 110, positive: 75, negative: 35 };
    const scheduling = { id: 'scheduling', mentions: 45, positive: 21, negative: 24 };
    expect(findMostComplained([scheduling, punctuality])?.id).toBe('punctuality');
  });
});

describe('on the demo business', () => {
  it('gives every aspect its corrected counts with a range and its measured accuracy', () => {
    for (const aspect of demo.aspects) {
      expect(aspect.accuracy, aspect.id).toEqual(expect.objectContaining({ detection: expect.objectContaining({ n: 2471 }) }));
      for (const part of ['mentions', 'positive', 'negative'] as const) {
        const range = aspect.estimate![part];
        expect(range.low, `${aspect.id} ${part}`).toBeLessThanOrEqual(range.value);
        expect(range.value, `${aspect.id} ${part}`).toBeLessThanOrEqual(range.high);
        expect(range.high).toBeLessThanOrEqual(demo.basis.review_count);
      }
    }
  });

  it('estimates quarters and profiles of at least 20 reviews, and says null for smaller ones', () => {
    const points = demo.aspects.flatMap((a) => a.trend);
    expect(points.some((p) => p.reviews < 20)).toBe(true);
    for (const p of points) expect(p.estimate === null, `${p.quarter}: ${p.reviews} reviews`).toBe(p.reviews < 20);
    for (const entity of [...demo.entities.technicians, ...demo.entities.services]) {
      for (const a of entity.aspects) expect(a.estimate === null, `${entity.name} ${a.aspect}`).toBe(entity.reviews < 20);
    }
  });

  it('answers an aspect question with the corrected counts first and the analyser\'s own after', () => {
    const price = demo.aspects.find((a) => a.id === 'price')!;
    const entry = demo.faq.find((f) => f.id === 'aspect-price')!;
    const { mentions, negative } = price.estimate!;
    expect(entry.answer).toMatch(new RegExp(`^About ${mentions.value} of 480 reviews mention price & value \\(${mentions.low}–${mentions.high}\\)`));
    expect(entry.answer).toContain(`about ${negative.value} negative (${negative.low}–${negative.high})`);
    expect(entry.answer).toContain(`it found ${price.mentions}`);
    expect(entry.figures).toMatchObject({ estimated_mentions: mentions.value, estimated_negative_high: negative.high, mentions: price.mentions });
  });

  it('names the aspect with most complaints in the summary, by the corrected counts and with their range', () => {
    const most = [...demo.aspects].sort((a, b) => b.estimate!.negative.value - a.estimate!.negative.value)[0]!;
    const { value, low, high } = most.estimate!.negative;
    expect(demo.summary.generated_text).toContain(`The most frequent complaint is about ${most.label.toLowerCase()}: about ${value} complaints (${low}–${high})`);
    expect(demo.summary.highlights.find((h) => h.kind === 'concern')?.aspect).toBe(most.id);
    expect(demo.summary.generated_text).not.toMatch(/\b1 (complaints|reviews|mentions)\b/);
  });

  it('lists as strengths only aspects with a clear majority of at least five mentions', () => {
    for (const entity of [...demo.entities.technicians, ...demo.entities.services]) {
      for (const id of entity.strengths) {
        const stats = entity.aspects.find((a) => a.aspect === id)!;
        expect(stats.mentions, `${entity.name} ${id}`).toBeGreaterThanOrEqual(5);
        expect(computeWilsonLowerBound(stats.positive, stats.mentions)).toBeGreaterThanOrEqual(0.5);
      }
    }
    // Some technician had a "strength" at 70% positive / 20% negative before the rule: none now.
    const weak = demo.entities.technicians.flatMap((t) => t.aspects.filter((a) => t.strengths.includes(a.aspect) && a.positive / a.mentions < 0.75));
    expect(weak.filter((a) => a.mentions < 15)).toEqual([]);
  });

  it('publishes reply rate and median reply time by star band, counted from the reviews', () => {
    const low = demoDataset.reviews.filter((r) => r.rating <= 2);
    const band = demo.responses.bands.find((b) => b.band === '1-2')!;
    expect(band.reviews).toBe(low.length);
    expect(band.replied).toBe(low.filter((r) => r.response !== null).length);
    expect(band.reply_rate).toBeCloseTo(band.replied / band.reviews, 3);
    expect(demo.responses.bands.map((b) => b.band)).toEqual(['1-2', '3', '4-5']);
    expect(demo.responses.reviews).toBe(demoDataset.reviews.length);
    expect(demo.summary.generated_text).toContain(`The owner replied to ${Math.round(band.reply_rate! * 100)}% of 1–2 star reviews (${band.replied} of ${band.reviews})`);
  });
});

describe('on a small business', () => {
  it('says how few reviews the best technician has', () => {
    expect(small.summary.generated_text).toContain('over only 4 reviews');
  });

  it('leaves out the areas answer when most reviews have no area', () => {
    expect(small.faq.map((f) => f.id)).toContain('service-areas');
    const withoutAreas = computeInsights({
      reviews: smallReviews.map((r, i) => (i % 3 === 0 ? r : { ...r, service_area: null })),
      model: loadDefaultModel(),
      business: loadFixtureBusiness(),
    });
    expect(withoutAreas.faq.map((f) => f.id)).not.toContain('service-areas');
  });

  it('computes the median reply days per band', () => {
    const responses = computeResponses([
      { ...smallReviews[0]!, rating: 1, date: '2025-01-01', response: { text: 'Sorry', date: '2025-01-02' } },
      { ...smallReviews[1]!, rating: 2, date: '2025-01-01', response: { text: 'Sorry', date: '2025-01-04' } },
      { ...smallReviews[2]!, rating: 2, date: '2025-01-01', response: null },
      { ...smallReviews[3]!, rating: 5, date: '2025-01-01' },
    ]);
    expect(responses.bands).toEqual([
      { band: '1-2', reviews: 3, replied: 2, reply_rate: 0.667, median_reply_days: 2 },
      { band: '3', reviews: 0, replied: 0, reply_rate: null, median_reply_days: null },
      { band: '4-5', reviews: 1, replied: 0, reply_rate: 0, median_reply_days: null },
    ]);
  });
});
