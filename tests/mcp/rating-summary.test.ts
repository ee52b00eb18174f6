import { describe, expect, it } from 'vitest';
import { listPeriods, summarizeRatings } from '../../core/rating-summary.ts';

const business = {
  technicians: [{ name: 'Rosa Delgado' }, { name: 'Ben Carter' }],
  services: [
    { id: 'drain-cleaning', name: 'Drain cleaning' },
    { id: 'boiler-repair', name: 'Boiler repair' },
  ],
};
const review = (date: string, rating: number, technicians: string[] = [], services: string[] = []) => ({ date, rating, technicians, services });
const reviews = [
  review('2025-03-02', 5, ['Rosa Delgado'], ['drain-cleaning']),
  review('2025-03-01', 4, ['Rosa Delgado', 'Ben Carter']),
  review('2025-01-15', 1, ['Ben Carter'], ['boiler-repair']),
  review('2024-11-30', 2),
];

describe('summarizeRatings', () => {
  it('counts the distribution and rounds the mean to 2 decimals', () => {
    expect(summarizeRatings(reviews, business, { period: 'month' }).overall).toEqual({
      count: 4,
      mean: 3,
      distribution: { '1': 1, '2': 1, '3': 0, '4': 1, '5': 1 },
    });
    expect(summarizeRatings(reviews.slice(0, 3), business, { period: 'month' }).overall.mean).toBe(3.33);
  });

  it('lists every month from the first to the last, oldest first, empty months with a null mean', () => {
    const { by_period } = summarizeRatings(reviews, business, { period: 'month' });
    expect(by_period.map((p) => [p.period, p.count, p.mean])).toEqual([
      ['2024-11', 1, 2],
      ['2024-12', 0, null],
      ['2025-01', 1, 1],
      ['2025-02', 0, null],
      ['2025-03', 2, 4.5],
    ]);
  });

  it('groups by year', () => {
    expect(summarizeRatings(reviews, business, { period: 'year' }).by_period.map((p) => [p.period, p.count])).toEqual([
      ['2024', 1],
      ['2025', 3],
    ]);
  });

  it('counts a review for each technician and service it mentions, every one listed in business order', () => {
    const summary = summarizeRatings(reviews, business, { period: 'month' });
    expect(summary.by_technician.map((t) => [t.technician, t.count, t.mean])).toEqual([
      ['Rosa Delgado', 2, 4.5],
      ['Ben Carter', 2, 2.5],
    ]);
    expect(summary.by_service.map((s) => [s.service_id, s.service_name, s.count])).toEqual([
      ['drain-cleaning', 'Drain cleaning', 1],
      ['boiler-repair', 'Boiler repair', 1],
    ]);
  });

  it('keeps only reviews within since and until, inclusive', () => {
    const summary = summarizeRatings(reviews, business, { period: 'month', since: '2025-01-15', until: '2025-03-01' });
    expect(summary.overall.count).toBe(2);
    expect(summary).toMatchObject({ since: '2025-01-15', until: '2025-03-01' });
    expect(summary.by_period.map((p) => p.period)).toEqual(['2025-01', '2025-02', '2025-03']);
  });

  it('summarises no reviews without inventing periods', () => {
    const summary = summarizeRatings([], business, { period: 'month' });
    expect(summary.overall).toEqual({ count: 0, mean: null, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } });
    expect(summary.by_period).toEqual([]);
    expect(summary.by_technician.every((t) => t.count === 0 && t.mean === null)).toBe(true);
  });
});

describe('listPeriods', () => {
  it('crosses year boundaries month by month', () => {
    expect(listPeriods(['2024-12', '2025-02'], 'month')).toEqual(['2024-12', '2025-01', '2025-02']);
  });
});
