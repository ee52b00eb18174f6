/**
 * The demo data's /reviews.json no longer carries the four errors issue 11 quotes, and every
 * published evidence span points at words of its review.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { createServiceUrls } from '../../core/urls.ts';

const loaded = await loadContent(join(import.meta.dirname, '..', '..', 'examples', 'demo'));
if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
const { reviews } = buildReviewsDataset(loaded.value, createServiceUrls('https://reviews.example.com'));
const containing = (words: string) => reviews.filter((r) => r.text.includes(words));
const polarityOf = (review: (typeof reviews)[number], aspect: string) => review.aspects.find((a) => a.aspect === aspect)?.polarity;

describe('the demo /reviews.json', () => {
  it.each([
    ['Getting a straight answer from the office was impossible', 'communication', 'positive'],
    ['The prices are incredibly inflated', 'price', 'neutral'],
    ['answered the phone late at night and had someone out first thing', 'punctuality', 'negative'],
    ['The tech was patient and kind', 'quality', 'negative'],
  ])('no longer reads "%s" as %s %s', (words, aspect, wrong) => {
    const found = containing(words);
    expect(found.length).toBeGreaterThan(0);
    for (const review of found) expect(polarityOf(review, aspect), review.id).not.toBe(wrong);
  });

  it('flags the complaints the issue quotes as negative (one long review still misses the office)', () => {
    const office = containing('Getting a straight answer from the office was impossible').map((r) => polarityOf(r, 'communication'));
    expect(office.filter((p) => p === 'negative').length).toBeGreaterThanOrEqual(office.length - 1);
    expect(office).not.toContain('positive');
    for (const review of containing('The prices are incredibly inflated')) expect(polarityOf(review, 'price'), review.id).toBe('negative');
  });

  it('gives evidence spans inside the field they name, for every aspect of every review read in its own words', () => {
    for (const review of reviews) {
      // A Spanish review is read through Google's translation, whose words no offset into the customer's can point at.
      if (review.translation !== undefined) {
        for (const aspect of review.aspects) expect(aspect.evidence, `${review.id} ${aspect.aspect}`).toEqual([]);
        continue;
      }
      for (const aspect of review.aspects) {
        expect(aspect.evidence.length, `${review.id} ${aspect.aspect}`).toBeGreaterThan(0);
        for (const span of aspect.evidence) {
          const field = span.field === 'title' ? review.title : review.text;
          expect(field, `${review.id} ${aspect.aspect}`).not.toBeNull();
          expect(span.start).toBeLessThan(span.end);
          expect(span.end).toBeLessThanOrEqual(field!.length);
          expect(field!.slice(span.start, span.end).trim().length).toBeGreaterThan(0);
        }
      }
    }
    // The demo's translated reviews do have aspects, read from the translation.
    expect(reviews.filter((r) => r.translation !== undefined && r.aspects.length > 0).length).toBeGreaterThan(20);
  });
});
