import { describe, expect, it } from 'vitest';
import { assignTechnicianSlugs, searchPagePath, servicePath, technicianPath } from '../../core/urls.ts';
import { FOLD_AFTER, foldLongText, formatDate, formatInsightText, formatSource, formatTelephone, telephoneHref } from '../../core/pages/format.ts';
import { createTranslator } from '../../core/i18n/translator.ts';
import { findQueryRanges, findReviewMarks, splitMarked } from '../../core/pages/highlight.ts';
import { slugify } from '../../core/text/text-rules.ts';

describe('how pages write things for people', () => {
  it.each([
    ['2026-11-14', 'November 14, 2026'],
    ['2024-02-29', 'February 29, 2024'],
    ['2025-01-03', 'January 3, 2025'],
  ])('writes %s as "%s"', (date, text) => expect(formatDate(date)).toBe(text));

  it('names months, sources and phone numbers as people write them', () => {
    expect(createTranslator('en').month('2026-11')).toBe('November 2026');
    expect([formatSource('google'), formatSource('yelp'), formatSource('direct'), formatSource('angi'), formatSource('home-advisor-pro')]).toEqual(['Google', 'Yelp', 'Direct', 'Angi', 'Home Advisor Pro']);
    expect(formatTelephone('+1-865-555-0142')).toBe('(865) 555-0142');
    expect(formatTelephone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(telephoneHref('+1-865-555-0142')).toBe('tel:+18655550142');
  });

  it('writes generated insight text with human dates and without the review ids the page links instead', () => {
    expect(formatInsightText('Newest from 2026-11-14. A customer wrote: “On time.” (review r-2024-12-0008). Others (reviews r-1, r-2) agree.')).toBe(
      'Newest from November 14, 2026. A customer wrote: “On time.” Others agree.',
    );
  });
});

describe('page URLs', () => {
  it('slugs technicians by name, accents folded, and keeps them apart when two names fold alike', () => {
    expect(slugify('Tomás Herrera-Núñez')).toBe('tomas-herrera-nunez');
    expect([...assignTechnicianSlugs(['Sarah K', 'Sarah-K', 'Zoë']).values()]).toEqual(['sarah-k', 'sarah-k-2', 'zoe']);
  });

  it('pages technicians and services under their own path, page 1 without a suffix', () => {
    expect(technicianPath('sarah-k')).toBe('/technicians/sarah-k/');
    expect(technicianPath('sarah-k', 1)).toBe('/technicians/sarah-k/');
    expect(servicePath('ac-repair', 3)).toBe('/services/ac-repair/page/3/');
  });

  it('links the search page with the REST search parameters, encoded', () => {
    expect(searchPagePath()).toBe('/search/');
    expect(searchPagePath({ mentions_technician: 'Sarah K', aspect: 'price' })).toBe('/search/?mentions_technician=Sarah+K&aspect=price');
  });
});

describe('foldLongText', () => {
  it('shows a text of up to 600 characters whole', () => {
    const text = 'word '.repeat(FOLD_AFTER / 5).trim();
    expect(foldLongText(text)).toEqual({ head: text, rest: null, headEnd: text.length, restStart: text.length });
  });

  it('folds a longer one at a word boundary before 400 characters, head and rest placed in the text', () => {
    const text = `${'a'.repeat(350)} ${'b'.repeat(100)} ${'c'.repeat(300)}`;
    const folded = foldLongText(text);
    expect(folded.head).toBe('a'.repeat(350));
    expect(folded.rest).toBe(`${'b'.repeat(100)} ${'c'.repeat(300)}`);
    expect(text.slice(0, folded.headEnd)).toBe(folded.head);
    expect(text.slice(folded.restStart)).toBe(folded.rest);
  });
});

describe('marks in search results', () => {
  it('finds the query case-insensitively, every occurrence, in the text\'s own offsets', () => {
    expect(findQueryRanges('On time, and on TIME again.', 'on time')).toEqual([
      { start: 0, end: 7 },
      { start: 13, end: 20 },
    ]);
    expect(findQueryRanges('aaaa', 'aa')).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ]);
    expect(findQueryRanges('anything', '')).toEqual([]);
  });

  it('keeps offsets right when lowercasing changes the length (İ lowers to two units)', () => {
    const text = 'İstanbul plumber, İzmir plumber';
    const ranges = findQueryRanges(text, 'plumber');
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['plumber', 'plumber']);
    const whole = findQueryRanges(text, 'izmir'); // 'İ'.toLowerCase() is 'i̇': no plain i matches it
    expect(whole).toEqual([]);
    expect(findQueryRanges(text, 'i̇zmir').map((r) => text.slice(r.start, r.end))).toEqual(['İzmir']);
  });

  it('marks what the index matched when lowering the whole text applies a context rule (the final sigma)', () => {
    const text = 'İstanbul ΟΔΟΣ 4';
    // The index's rule (core/search/text-index.ts): the whole text lowered, then a substring.
    expect(text.toLowerCase().includes('οδος')).toBe(true);
    expect(findQueryRanges(text, 'οδος').map((r) => text.slice(r.start, r.end))).toEqual(['ΟΔΟΣ']);
    expect(findQueryRanges(text, 'İSTANBUL').map((r) => text.slice(r.start, r.end))).toEqual(['İstanbul']);
  });

  it('marks the query and the evidence of the chosen aspect and opinion, merged, in title and text', () => {
    const review = {
      title: 'Price shock',
      text: 'The price was high. Fast work though.',
      aspects: [
        { aspect: 'price', polarity: 'negative' as const, score: -0.6, evidence: [{ field: 'title' as const, start: 0, end: 11 }, { field: 'text' as const, start: 4, end: 18 }] },
        { aspect: 'speed', polarity: 'positive' as const, score: 0.5, evidence: [{ field: 'text' as const, start: 20, end: 24 }] },
      ],
    };
    expect(findReviewMarks(review, { query: 'price', aspect: 'price', polarity: 'negative' })).toEqual({
      title: [{ start: 0, end: 11 }],
      text: [{ start: 4, end: 18 }],
    });
    expect(findReviewMarks(review, { polarity: 'positive' }).text).toEqual([{ start: 20, end: 24 }]);
    expect(findReviewMarks(review, { aspect: 'price', polarity: 'positive' })).toEqual({ title: [], text: [] });
    expect(findReviewMarks(review, {})).toEqual({ title: [], text: [] });
  });

  it('cuts a slice of the text into plain and marked pieces, a mark across the edge cut there', () => {
    const text = 'one two three four';
    const ranges = [{ start: 4, end: 13 }];
    expect(splitMarked(text, ranges)).toEqual([
      { text: 'one ', marked: false },
      { text: 'two three', marked: true },
      { text: ' four', marked: false },
    ]);
    expect(splitMarked(text, ranges, 8)).toEqual([
      { text: 'three', marked: true },
      { text: ' four', marked: false },
    ]);
    expect(splitMarked(text, ranges, 0, 6).map((p) => p.text).join('')).toBe('one tw');
  });
});
