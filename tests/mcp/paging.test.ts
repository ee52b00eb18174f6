import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, encodeNextCursor, fingerprintFilters } from '../../core/paging.ts';

describe('fingerprintFilters', () => {
  it('ignores key order and undefined values', () => {
    expect(fingerprintFilters({ rating: 5, query: 'leak' })).toBe(fingerprintFilters({ query: 'leak', rating: 5, since: undefined }));
  });

  it.each([
    [{ rating: 5 }, { rating: 4 }],
    [{ query: 'a' }, { query: 'b' }],
    [{}, { since: '2024-01-01' }],
  ])('tells %j from %j', (a, b) => {
    expect(fingerprintFilters(a)).not.toBe(fingerprintFilters(b));
  });
});

describe('cursors', () => {
  const f = fingerprintFilters({ rating: 5 });

  it('round-trips an offset for the same filters', () => {
    expect(decodeCursor(encodeCursor(40, f), f)).toEqual({ ok: true, offset: 40 });
  });

  it('is URL-safe text', () => {
    expect(encodeCursor(123456, f)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses a cursor issued for other filters', () => {
    expect(decodeCursor(encodeCursor(20, f), fingerprintFilters({ rating: 4 }))).toMatchObject({ ok: false, message: expect.stringContaining('other filters') });
  });

  it.each(['', 'not base64!', 'e30', btoa('{"v":1,"o":-1,"f":"x"}'), btoa('{"v":2,"o":1,"f":"x"}'), btoa('[]')])('refuses %j', (text) => {
    expect(decodeCursor(text, f).ok).toBe(false);
  });
});

describe('encodeNextCursor', () => {
  const f = 'x';
  it('points after the page while matches remain', () => {
    const next = encodeNextCursor({ offset: 20, count: 20, total: 45 }, f);
    expect(next && decodeCursor(next, f)).toEqual({ ok: true, offset: 40 });
  });

  it.each([
    { offset: 40, count: 5, total: 45 },
    { offset: 0, count: 0, total: 0 },
    { offset: 60, count: 0, total: 45 },
  ])('is null on the last page %j', (page) => {
    expect(encodeNextCursor(page, f)).toBeNull();
  });
});
