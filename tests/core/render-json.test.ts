/**
 * The reviews' JSON as bytes (core/dataset/render-json.ts): a search answer is copied together from each
 * review's cached UTF-8 bytes, and must be exactly the bytes of the string it replaced.
 */
import { describe, expect, it } from 'vitest';
import { createReviewJsonCache, joinReviewBytes } from '../../core/dataset/render-json.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';

const reviews = [
  { id: 'r-1', rating: 5, text: 'Plain ASCII.' },
  { id: 'r-2', rating: 4, text: 'Café, naïve — “quoted” and an emoji 🔧.' },
  { id: 'r-3', rating: 1, text: 'A line\nwith a "quote" and a \\ backslash.' },
] as unknown as PublishedReview[];

describe('joinReviewBytes', () => {
  it('gives the UTF-8 bytes of head, the reviews joined by commas, and tail', () => {
    const cache = createReviewJsonCache(reviews);
    for (const positions of [[], [0], [1], [2, 0, 1], [1, 1]]) {
      const tail = `],"count":${positions.length},"note":"é"}`;
      const expected = `{"reviews":[${positions.map((pos) => JSON.stringify(reviews[pos])).join(',')}${tail}`;
      expect(joinReviewBytes(cache, positions, '{"reviews":[', tail).toString('utf8')).toBe(expected);
      expect(joinReviewBytes(cache, positions, '{"reviews":[', tail).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('takes the bytes made for the same review object from a carried cache, and makes the rest', () => {
    const before = createReviewJsonCache(reviews);
    const made = [before.utf8(0), before.utf8(1)];
    const edited = { ...reviews[2]!, text: 'Edited.' } as PublishedReview;
    // The next list: r-2 kept at position 0, r-3 edited, r-1 kept but its bytes were never made.
    const next = [reviews[1]!, edited, reviews[0]!];
    const after = createReviewJsonCache(next, { cache: before, positions: [1, -1, 0] });
    expect(after.madeUtf8(0)).toBe(made[1]);
    expect(after.madeUtf8(1)).toBeUndefined();
    expect(after.madeUtf8(2)).toBe(made[0]);
    expect(after.utf8(1).toString('utf8')).toBe(JSON.stringify(edited));
    // A position that names another object is not trusted.
    const wrong = createReviewJsonCache(next, { cache: before, positions: [0, 1, 2] });
    expect([0, 1, 2].map((pos) => wrong.madeUtf8(pos))).toEqual([undefined, undefined, undefined]);
  });
});
