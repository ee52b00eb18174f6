/**
 * The reviews' JSON as bytes (core/dataset/render-json.ts): a search answer is copied together from each
 * review's cached UTF-8 bytes, and must be exactly the bytes of the string it replaced; the REST lists give
 * each review with its log_entry, the bytes of JSON.stringify of the review with it.
 */
import { describe, expect, it } from 'vitest';
import { createReviewJsonCache, joinListedReviewBytes, renderSinceBody } from '../../core/dataset/render-json.ts';
import { createLogEntryLookup } from '../../core/dataset/review-log-entry.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';

const reviews = [
  { id: 'r-1', rating: 5, text: 'Plain ASCII.' },
  { id: 'r-2', rating: 4, text: 'Café, naïve — “quoted” and an emoji 🔧.' },
  { id: 'r-3', rating: 1, text: 'A line\nwith a "quote" and a \\ backslash.' },
] as unknown as PublishedReview[];

const urls = createServiceUrls('https://reviews.example.com/é');
/** r-1 and r-2 are in the log, r-3 is not. */
const logEntryOf = createLogEntryLookup(new Map([['r-1', 7], ['r-2', 0]]), urls);
const listed = (review: PublishedReview) => {
  const entry = logEntryOf(review.id);
  return JSON.stringify(entry === undefined ? review : { ...review, log_entry: entry });
};

describe('joinListedReviewBytes', () => {
  it('gives the UTF-8 bytes of head, the reviews with their log_entry joined by commas, and tail', () => {
    const cache = createReviewJsonCache(reviews);
    for (const positions of [[], [0], [1], [2], [2, 0, 1], [1, 1]]) {
      const tail = `],"count":${positions.length},"note":"é"}`;
      const expected = `{"reviews":[${positions.map((pos) => listed(reviews[pos]!)).join(',')}${tail}`;
      expect(joinListedReviewBytes(cache, positions, logEntryOf, '{"reviews":[', tail).toString('utf8')).toBe(expected);
      expect(joinListedReviewBytes(cache, positions, logEntryOf, '{"reviews":[', tail).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('puts log_entry last in a review of the log, and none in the others', () => {
    const body = JSON.parse(joinListedReviewBytes(createReviewJsonCache(reviews), [0, 2], logEntryOf, '[', ']').toString('utf8'));
    expect(body[0]).toEqual({ ...reviews[0], log_entry: { index: 7, checkpoint_url: `${urls.base}/log/checkpoint`, proof_url: `${urls.base}/log/proof/r-1.tlog-proof` } });
    expect(Object.keys(body[0]).at(-1)).toBe('log_entry');
    expect(body[1]).toEqual(reviews[2]);
  });
});

describe('renderSinceBody', () => {
  it('lists the first count reviews with their log_entry, as the search does', () => {
    const cache = createReviewJsonCache(reviews);
    for (const count of [0, 1, 3]) {
      const positions = [...Array(count).keys()];
      expect(renderSinceBody(cache, count, logEntryOf)).toBe(joinListedReviewBytes(cache, positions, logEntryOf, '{"reviews":[', `],"count":${count},"total":${count}}`).toString('utf8'));
      expect(JSON.parse(renderSinceBody(cache, count, logEntryOf)).reviews).toEqual(reviews.slice(0, count).map((r) => JSON.parse(listed(r))));
    }
  });
});
