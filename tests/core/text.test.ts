/** The small rules of text (core/text/text-rules.ts), each written once and used by the pages, the feeds, the scripts and the tools. */
import { describe, expect, it } from 'vitest';
import { compareText, formatCount, joinList, plural, slugify } from '../../core/text/text-rules.ts';

describe('slugify', () => {
  it.each([
    ['Tomás Herrera', 'tomas-herrera'],
    ['Calefacción', 'calefaccion'],
    ['  Drain -- Cleaning! ', 'drain-cleaning'],
    ['ΟΔΟΣ', 'x'],
  ])('%j → %j', (name, slug) => expect(slugify(name)).toBe(slug));
});

describe('compareText', () => {
  it('orders by code unit, the same on every machine, and 0 for equal strings', () => {
    expect(['b', 'B', 'a', 'á', 'a'].sort(compareText)).toEqual(['B', 'a', 'a', 'b', 'á']);
    expect(compareText('x', 'x')).toBe(0);
  });
});

describe('plural', () => {
  it.each([
    [1, 'review', {}, '1 review'],
    [0, 'review', {}, '0 reviews'],
    [1200, 'review', {}, '1,200 reviews'],
    [2, 'reply', { many: 'replies' }, '2 replies'],
    [1, 'review', { word: true }, 'review'],
    [3, 'exist', { many: 'exist', word: true }, 'exist'],
    [3, 'review', { word: true }, 'reviews'],
  ] as const)('%i %s %j → %j', (count, one, options, text) => expect(plural(count, one, options)).toBe(text));
});

describe('joinList', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b and c'],
  ])('%j → %j', (items, text) => expect(joinList(items)).toBe(text));
});

describe('formatCount', () => {
  it('groups thousands with commas', () => expect([7, 12345, 1234567].map(formatCount)).toEqual(['7', '12,345', '1,234,567']));
});
