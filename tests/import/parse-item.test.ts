/** An exported item that breaks several rules is skipped with every problem named, in the house wording. */
import { describe, expect, it } from 'vitest';
import { ZOD_DEFAULT_PHRASES } from '../../core/schemas/issues.ts';
import { parseChangeLog } from '../../core/dataset/change-log.ts';
import { toImportedReview } from '../../scripts/import/record.ts';

const origin = { file: 'export.csv', row: 4 };
const context = { origin, supplied: [], fieldNames: { rating: 'Stars', date: 'Created' } };
const review = { id: 'r-1', rating: 5, date: '2025-01-02', text: 'Fine work.', author: 'Ann', source: 'direct', verified: true };

describe('toImportedReview', () => {
  it('names a lone problem by the export’s own field name', () => {
    const outcome = toImportedReview({ ...review, rating: 9 }, context);
    expect(outcome).toMatchObject({ ok: false, skip: { reason: 'invalid', field: 'Stars' } });
  });

  it('keeps every problem, not the first, each under the export’s field name', () => {
    const outcome = toImportedReview({ ...review, rating: 9, date: 'soon' }, context);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.skip.field).toBeUndefined();
    expect(outcome.skip.message).toMatch(/^Stars: .+; Created: .+$/);
    expect(outcome.skip.message).not.toMatch(ZOD_DEFAULT_PHRASES);
  });
});

describe('parseChangeLog', () => {
  it('says every way a stored log breaks its schema, in the house wording', () => {
    const outcome = parseChangeLog(JSON.stringify({ checks: 'not base64url', entries: 'none' }), new Map());
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    const lines = outcome.message.split('\n');
    expect(lines[0]).toBe('does not match its schema:');
    expect(lines.slice(1).map((line) => line.split(':')[0]).sort()).toEqual(['checks', 'entries']);
    expect(outcome.message).not.toMatch(ZOD_DEFAULT_PHRASES);
  });
});
