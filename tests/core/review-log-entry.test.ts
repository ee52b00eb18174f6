/**
 * A review's log_entry (core/dataset/review-log-entry.ts), the one rule MCP `get_review` and the REST lists
 * share: its latest entry's position, the checkpoint URL and its tlog-proof URL, or none outside the log.
 */
import { describe, expect, it } from 'vitest';
import { createChangeLog, createChangeLogWithoutHistory } from '../../core/dataset/change-log.ts';
import { createLogEntryLookup, latestEntriesOf } from '../../core/dataset/review-log-entry.ts';
import { encodeLogEntry, type LogEntry } from '../../core/log/index.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';

const urls = createServiceUrls('https://example.com/reviews');
const DIGEST = 'A'.repeat(43) + '=';
const entry = (action: 'publish' | 'update', id: string): LogEntry => ({ action, review_id: id, time: '2026-01-02T03:04:05Z', date: '2025-01-01', rating: 5, digest: DIGEST });

describe('createLogEntryLookup', () => {
  it('gives the position, the checkpoint URL and the proof URL under the base path', () => {
    const logEntryOf = createLogEntryLookup(new Map([['r-1', 4]]), urls);
    expect(logEntryOf('r-1')).toEqual({
      index: 4,
      checkpoint_url: 'https://example.com/reviews/log/checkpoint',
      proof_url: 'https://example.com/reviews/log/proof/r-1.tlog-proof',
    });
  });

  it('gives none for a review not in the log, nor for any review of a build without a log', () => {
    expect(createLogEntryLookup(new Map([['r-1', 4]]), urls)('r-2')).toBeUndefined();
    expect(createLogEntryLookup(undefined, urls)('r-1')).toBeUndefined();
  });
});

describe('latestEntriesOf', () => {
  it('gives each review’s latest entry of a review log', () => {
    const entries = [entry('publish', 'r-1'), entry('publish', 'r-2'), entry('update', 'r-1')];
    expect(latestEntriesOf(createChangeLog(entries, entries.map(encodeLogEntry)))).toEqual(new Map([['r-2', 1], ['r-1', 2]]));
  });

  it('gives none for a change log without history, whose positions are not log entries', () => {
    const reviews = [{ id: 'r-1', updated: '2025-01-01T00:00:00Z' }] as PublishedReview[];
    expect(latestEntriesOf(createChangeLogWithoutHistory(reviews))).toBeUndefined();
  });
});
