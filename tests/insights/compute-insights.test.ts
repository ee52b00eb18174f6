import { describe, expect, it } from 'vitest';
import { buildSchemaComponents } from '../../core/openapi/schema-components.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { analyzeReview, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { computeInsights } from '../../core/insights/compute-insights.ts';
import { parseInsightsEditorial, checkEditorialReviewIds } from '../../core/insights/editorial.ts';
import type { InsightsEditorial } from '../../core/insights/editorial.ts';
import { InsightsSchema } from '../../core/schemas/insights.ts';
import type { Insights } from '../../core/schemas/insights.ts';
import type { InsightsReview } from '../../core/insights/analyzed-review.ts';
import { generateSyntheticReviews } from '../fixtures/insights/synthetic-reviews.ts';
import { loadDefaultModel, loadFixtureBusiness, loadFixtureReviews } from './load-fixtures.ts';

const model = loadDefaultModel();
const reviews = loadFixtureReviews();
const business = loadFixtureBusiness();
const insights = computeInsights({ reviews, model, business });

function editorial(files: { faq?: unknown; summary?: unknown }): InsightsEditorial {
  const parsed = parseInsightsEditorial(files);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.editorial;
}

/** Every review id the document cites, wherever it is. */
function collectReviewIds(document: Insights): string[] {
  return [
    ...document.aspects.flatMap((a) => a.quotes.map((q) => q.review_id)),
    ...Object.values(document.entities).flatMap((list) => list.flatMap((e) => e.recent_review_ids)),
    ...document.topics.flatMap((t) => t.review_ids),
    ...document.faq.flatMap((f) => f.review_ids),
    ...document.summary.highlights.flatMap((h) => h.review_ids),
  ];
}

describe('computeInsights', () => {
  it('produces a document that InsightsSchema accepts and that the OpenAPI components can describe', () => {
    expect(InsightsSchema.parse(insights)).toEqual(insights);
    const components = buildSchemaComponents({ urls: createServiceUrls('http://localhost:4321'), insightsSchema: InsightsSchema });
    expect(components['Insights']?.['description']).toMatch(/^Aspect-based sentiment/);
    for (const id of ['AspectInsight', 'EntityInsight', 'InsightTopic', 'FaqEntry', 'InsightsSummary', 'InsightQuote']) {
      expect(components[id], id).toBeDefined();
    }
  });

  it('states its basis: review count, first and last date, mean rating', () => {
    expect(insights.basis).toEqual({ review_count: 14, first_date: '2024-01-15', last_date: '2025-06-11', average_rating: 3.5 });
  });

  it('counts aspects per review, matching an independent count from analyzeReview', () => {
    for (const aspect of insights.aspects) {
      const mentions = reviews.map((r) => analyzeReview(getAnalysisText(r), model, r.rating).find((m) => m.aspect === aspect.id));
      const count = (p: string) => mentions.filter((m) => m?.polarity === p).length;
      expect([aspect.mentions, aspect.positive, aspect.neutral, aspect.negative], aspect.id).toEqual([
        mentions.filter(Boolean).length,
        count('positive'),
        count('neutral'),
        count('negative'),
      ]);
      expect(aspect.trend.reduce((sum, q) => sum + q.mentions, 0)).toBe(aspect.mentions);
    }
    const price = insights.aspects.find((a) => a.id === 'price');
    expect(price).toMatchObject({ mentions: 5, positive: 3, negative: 2, net_score: 20, filter: { aspect: 'price' } });
  });

  it('lists every quarter from the first review to the last', () => {
    expect(insights.aspects[0]?.trend.map((q) => q.quarter)).toEqual([
      '2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4', '2025-Q1', '2025-Q2',
    ]);
  });

  it('quotes sentences that are in the cited review, with the polarity counted for it', () => {
    for (const aspect of insights.aspects) {
      for (const quote of aspect.quotes) {
        const review = reviews.find((r) => r.id === quote.review_id);
        expect(getAnalysisText(review ?? { text: '' })).toContain(quote.text);
        const mention = analyzeReview(getAnalysisText(review ?? { text: '' }), model, review?.rating).find((m) => m.aspect === aspect.id);
        expect(mention?.polarity).toBe(quote.polarity);
      }
    }
    const price = insights.aspects.find((a) => a.id === 'price');
    expect(price?.quotes.map((q) => [q.polarity, q.review_id])).toEqual([
      ['positive', 'r07'], ['positive', 'r03'], ['negative', 'r02'], ['negative', 'r12'],
    ]);
  });

  it('counts technicians, services and areas like an independent naive count', () => {
    const naive = (has: (r: (typeof reviews)[number]) => boolean) => {
      const matching = reviews.filter(has);
      const mean = matching.length === 0 ? null : Math.round((matching.reduce((s, r) => s + r.rating, 0) / matching.length) * 100) / 100;
      return { reviews: matching.length, average_rating: mean };
    };
    for (const t of insights.entities.technicians) {
      expect({ reviews: t.reviews, average_rating: t.average_rating }, t.name).toEqual(naive((r) => r.technicians.includes(t.name)));
    }
    for (const s of insights.entities.services) {
      expect({ reviews: s.reviews, average_rating: s.average_rating }, s.name).toEqual(naive((r) => r.services.includes(s.id ?? '')));
    }
    for (const a of insights.entities.service_areas) {
      expect({ reviews: a.reviews, average_rating: a.average_rating }, a.name).toEqual(naive((r) => r.service_area === a.name));
    }
    expect(insights.entities.technicians.map((t) => [t.name, t.reviews])).toEqual([
      ['Michael Reyes', 4], ['Sarah Chen', 4], ['Tom Walsh', 3], ['Ana Lopez', 0],
    ]);
    expect(insights.entities.services.find((s) => s.id === 'gas-line')).toMatchObject({ reviews: 0, average_rating: null, aspects: [] });
  });

  it('profiles each technician by aspect, with strengths and the search filter that lists their reviews', () => {
    const mike = insights.entities.technicians.find((t) => t.name === 'Michael Reyes');
    expect(mike).toMatchObject({
      first_date: '2024-01-15',
      last_date: '2025-02-17',
      recent_review_ids: ['r10', 'r08', 'r05', 'r01'],
      filter: { mentions_technician: 'Michael Reyes' },
    });
    expect(mike?.aspects.find((a) => a.aspect === 'punctuality')).toMatchObject({ mentions: 3, positive: 3, net_score: 100 });
    // 3 of 3 is too few mentions for a verdict (MIN_VERDICT_MENTIONS).
    expect(mike?.strengths).not.toContain('punctuality');
    const tom = insights.entities.technicians.find((t) => t.name === 'Tom Walsh');
    expect(tom?.aspects.find((a) => a.aspect === 'professionalism')).toMatchObject({ mentions: 2, positive: 1, negative: 1 });
  });

  it('cites only reviews that exist', () => {
    const ids = new Set(reviews.map((r) => r.id));
    const cited = collectReviewIds(insights);
    expect(cited.length).toBeGreaterThan(20);
    expect(cited.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('answers the FAQ from the data, with the numbers it quotes', () => {
    const byId = new Map(insights.faq.map((f) => [f.id, f]));
    expect(byId.get('overall-rating')?.answer).toBe(
      '14 verified reviews give an average of 3.50 out of 5: 36% give five stars and 29% one or two. The newest is from 2025-06-11.',
    );
    const punctuality = byId.get('aspect-punctuality');
    expect(punctuality?.question).toBe('Do they show up on time?');
    expect(punctuality?.answer).toMatch(/^5 of 14 reviews mention punctuality: 4 positive \(80%\), 1 negative \(20%\)/);
    expect(punctuality?.answer).toContain('“Mike showed up right on time and was super polite.” (review r01)');
    expect(punctuality?.figures).toMatchObject({ mentions: 5, positive: 4, negative: 1 });
    expect(byId.get('who-to-ask-for')?.answer).toMatch(/^Michael Reyes has the best record: 4\.75 out of 5 over only 4 reviews/);
    expect(byId.get('service-areas')?.answer).toMatch(/^They list 4 areas: Springfield, Riverside, Oak Park and Fairview\./);
  });

  it('writes a summary from the data and states its basis', () => {
    expect(insights.summary).toMatchObject({ source: 'data', stale: false, editor_as_of: null, basis: insights.basis });
    expect(insights.summary.text).toBe(insights.summary.generated_text);
    expect(insights.summary.text).toMatch(/^Based on 14 verified reviews from 2024-01-15 to 2025-06-11, Fixture Plumbing & Heating averages 3\.50 out of 5\./);
    expect(insights.summary.text).toContain('The best-rated technician is Michael Reyes (4.75 over only 4 reviews).');
  });

  it("lets the editor replace, hide and add FAQ entries, and replace the summary (flagged stale when older than the data)", () => {
    const edited = computeInsights({
      reviews,
      model,
      business,
      editorial: editorial({
        faq: {
          entries: [
            { id: 'aspect-price', question: 'Are prices fair?', answer: 'We publish our rates.', review_ids: ['r03'] },
            { question: 'Do you offer financing?', answer: 'Yes, on jobs over $1,000.' },
          ],
          hide: ['recent-trend', 'services'],
        },
        summary: { text: 'Our customers love Mike.', as_of: '2025-01-01' },
      }),
    });
    const ids = edited.faq.map((f) => f.id);
    expect(ids).not.toContain('services');
    expect(ids.indexOf('aspect-price')).toBe(insights.faq.findIndex((f) => f.id === 'aspect-price'));
    expect(edited.faq.find((f) => f.id === 'aspect-price')).toMatchObject({ source: 'editor', answer: 'We publish our rates.', review_ids: ['r03'] });
    expect(edited.faq.at(-1)).toMatchObject({ id: 'editor-2', source: 'editor', question: 'Do you offer financing?' });
    expect(edited.summary).toMatchObject({ text: 'Our customers love Mike.', source: 'editor', editor_as_of: '2025-01-01', stale: true });
    expect(edited.summary.generated_text).toBe(insights.summary.generated_text);
  });

  it('reports editor entries that cite reviews which do not exist', () => {
    const draft = editorial({ faq: { entries: [{ question: 'Q?', answer: 'A.', review_ids: ['r01', 'nope'] }] } });
    expect(checkEditorialReviewIds(draft, new Set(reviews.map((r) => r.id)))).toEqual([
      expect.objectContaining({ path: ['faq.json', 'entries', 0, 'review_ids', 1] }),
    ]);
  });

  it('is deterministic: shuffled input gives the same bytes', () => {
    const shuffled = [...reviews].reverse();
    shuffled.push(...shuffled.splice(0, 5));
    const again = computeInsights({ reviews: shuffled, model: loadDefaultModel(), business });
    expect(JSON.stringify(again)).toBe(JSON.stringify(insights));
  });

  it('returns a valid, empty document without reviews', () => {
    const empty = computeInsights({ reviews: [], model });
    expect(InsightsSchema.parse(empty)).toEqual(empty);
    expect(empty.basis).toEqual({ review_count: 0, first_date: null, last_date: null, average_rating: null });
    expect(empty.summary.text).toBe('There are no verified reviews yet.');
    expect(empty.aspects.every((a) => a.mentions === 0 && a.net_score === null)).toBe(true);
  });

  it('finds recurring key phrases and counts them like a naive whole-word search', () => {
    const synthetic = generateSyntheticReviews(2000, 7);
    const result = computeInsights({ reviews: synthetic, model, business: { ...business, name: 'Water Works' } });
    const phrases = result.topics.map((t) => t.phrase);
    expect(phrases).toContain('hidden fees');
    expect(phrases.some((p) => p.includes('water'))).toBe(false);
    for (const topic of result.topics.slice(0, 5)) {
      const pattern = new RegExp(`\\b${topic.phrase.replace(/[-]/g, '\\-')}\\b`, 'i');
      const naive = synthetic.filter((r) => pattern.test(r.text.replace(/\s+/g, ' '))).length;
      expect(topic.reviews, topic.phrase).toBe(naive);
      expect(topic.positive + topic.neutral + topic.negative).toBe(topic.reviews);
    }
    expect(phrases.some((p) => p.includes('michael') || p.includes('sarah'))).toBe(false);
  });
});

describe('computeTopics: chips a reader recognises', () => {
  /** Phrases that name no subject: clause fragments, the rating itself, a phrase cut short. */
  const FILLER = ['tech they sent', 'plumber they sent', 'company we used', 'five stars', 'easy to talk', 'right the first', 'new air', 'knew exactly', 'big difference'];
  const review = (i: number, text: string): InsightsReview => ({ id: `r-${i}`, rating: 5, date: '2025-01-01', text, title: null, technicians: [], services: [], service_area: null });

  it('names subjects, never a clause fragment, the stars or a phrase cut short', () => {
    const texts = [
      'The tech they sent fixed our water heater. Five stars!',
      'They put in a new air conditioner and explained the maintenance plan. Five stars.',
      'The tech they sent was easy to talk to about the new air conditioner and the water heater.',
      'Got it right the first time: the water heater works and the maintenance plan is cheap.',
    ];
    const reviews = Array.from({ length: 40 }, (_, i) => review(i, texts[i % texts.length]!));
    const phrases = computeInsights({ reviews, model }).topics.map((t) => t.phrase);
    expect(phrases).toEqual(expect.arrayContaining(['water heater', 'maintenance plan', 'new air conditioner']));
    for (const filler of FILLER) expect(phrases, filler).not.toContain(filler);
  });

  it('gives the demo business no filler chip', async () => {
    const { loadContent } = await import('../../core/content/load-content.ts');
    const { publishReviews } = await import('../../core/content/publish-reviews.ts');
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const { reviews: published } = publishReviews(loaded.value, createServiceUrls('https://reviews.example.com'), loaded.value.insights.model);
    const phrases = computeInsights({ reviews: published, model: loaded.value.insights.model, business: loaded.value.business }).topics.map((t) => t.phrase);
    expect(phrases.length).toBeGreaterThanOrEqual(10);
    expect(phrases).toEqual(expect.arrayContaining(['water heater', 'air conditioner', 'maintenance plan']));
    for (const filler of FILLER) expect(phrases, filler).not.toContain(filler);
    // No function word inside a chip but "of" ("peace of mind").
    for (const phrase of phrases) expect(phrase, phrase).not.toMatch(/\b(they|we|to|the|a|it|was|for|and|you|i)\b/);
  });
});
