import { describe, expect, it } from 'vitest';
import { assignTechnicianSlugs, searchPagePath, servicePath, slugify, technicianPath } from '../../core/urls.ts';
import { formatDate, formatInsightText, formatMonth, formatSource, formatTelephone, telephoneHref } from '../../site/lib/format.ts';

describe('how pages write things for people', () => {
  it.each([
    ['2026-11-14', 'November 14, 2026'],
    ['2024-02-29', 'February 29, 2024'],
    ['2025-01-03', 'January 3, 2025'],
  ])('writes %s as "%s"', (date, text) => expect(formatDate(date)).toBe(text));

  it('names months, sources and phone numbers as people write them', () => {
    expect(formatMonth('2026-11')).toBe('November 2026');
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
