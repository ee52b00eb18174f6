import { describe, expect, it } from 'vitest';
import type { ErrorIssue } from '../../core/schemas/errors.ts';
import { createReviewIndex, parseSearchParams, resolveSearchQuery, SEARCH_PARAMETERS } from '../../core/search/index.ts';
import { createSyntheticBusiness, createSyntheticReviews, SYNTHETIC_ASPECTS } from '../../tools/fixtures/search/synthetic-reviews.ts';

const business = createSyntheticBusiness();
const index = createReviewIndex(createSyntheticReviews({ count: 50, seed: 3 }, business), business, { aspects: SYNTHETIC_ASPECTS });

/** REST path: query string → parseSearchParams → resolveSearchQuery. */
function searchFromQueryString(queryString: string) {
  const parsed = parseSearchParams(new URLSearchParams(queryString));
  return resolveSearchQuery(parsed.input, index, parsed.issues);
}

function issuesOf(result: { ok: true } | { ok: false; issues: ErrorIssue[] }): ErrorIssue[] {
  return result.ok ? [] : result.issues;
}

/** [path, code] of each issue, to compare tables compactly. */
function summarise(result: { ok: true } | { ok: false; issues: ErrorIssue[] }): [string, string][] {
  return issuesOf(result).map((issue) => [issue.path.join('.'), issue.code]);
}

describe('parseSearchParams and resolveSearchQuery (REST)', () => {
  it.each([
    ['foo=1', [['foo', 'unrecognized_parameter']]],
    ['Rating=5', [['Rating', 'unrecognized_parameter']]],
    ['rating=4&rating=5', [['rating', 'repeated_parameter']]],
    ['limit=5&limit=5', [['limit', 'repeated_parameter']]],
    ['rating=0', [['rating', 'too_small']]],
    ['rating=6', [['rating', 'too_big']]],
    ['rating=2.5', [['rating', 'invalid_type']]],
    ['rating=abc', [['rating', 'invalid_type']]],
    ['rating=', [['rating', 'invalid_type']]],
    ['rating=+3', [['rating', 'invalid_type']]],
    ['rating=%203', [['rating', 'invalid_type']]],
    ['rating=0x3', [['rating', 'invalid_type']]],
    ['rating=99999999999999999999', [['rating', 'too_big']]],
    ['min_rating=0.5', [['min_rating', 'too_small']]],
    ['min_rating=5.5', [['min_rating', 'too_big']]],
    ['min_rating=1e0', [['min_rating', 'invalid_type']]],
    ['min_rating=.5', [['min_rating', 'invalid_type']]],
    ['min_rating=4.', [['min_rating', 'invalid_type']]],
    ['min_rating=-1', [['min_rating', 'invalid_type']]],
    ['limit=0', [['limit', 'too_small']]],
    ['limit=101', [['limit', 'too_big']]],
    ['limit=1e2', [['limit', 'invalid_type']]],
    ['limit=-1', [['limit', 'invalid_type']]],
    ['limit=20.0', [['limit', 'invalid_type']]],
    ['since=2024-02-30', [['since', 'invalid_format']]],
    ['since=2024-2-1', [['since', 'invalid_format']]],
    ['until=2023-02-29', [['until', 'invalid_format']]],
    ['since=2024-13-01', [['since', 'invalid_format']]],
    ['since=20240101', [['since', 'invalid_format']]],
    ['until=2024-01-01T00:00:00Z', [['until', 'invalid_format']]],
    ['since=', [['since', 'invalid_format']]],
    ['since=2024-05-02&until=2024-05-01', [['since', 'since_after_until']]],
    ['since=2024-02-30&until=2024-01-01', [['since', 'invalid_format']]],
    ['since=2024-05-02&until=2024-02-30', [['until', 'invalid_format']]],
    ['mentions_technician=Nobody', [['mentions_technician', 'unknown_technician']]],
    ['mentions_technician=Mik', [['mentions_technician', 'unknown_technician']]],
    ['mentions_technician=', [['mentions_technician', 'too_small']]],
    ['mentions_technician=%20%20', [['mentions_technician', 'unknown_technician']]],
    ['mentions_service=plumbing', [['mentions_service', 'unknown_service']]],
    ['mentions_service=AC%20repair', [['mentions_service', 'unknown_service']]],
    ['mentions_service=', [['mentions_service', 'too_small']]],
    [`query=${'x'.repeat(201)}`, [['query', 'too_big']]],
    ['aspect=on-time', [['aspect', 'unknown_aspect']]],
    ['aspect=', [['aspect', 'too_small']]],
    ['aspect=price&aspect=speed', [['aspect', 'repeated_parameter']]],
    ['aspect_sentiment=bad', [['aspect_sentiment', 'invalid_value']]],
    ['aspect_sentiment=Positive', [['aspect_sentiment', 'invalid_value']]],
    ['aspect_sentiment=', [['aspect_sentiment', 'invalid_value']]],
    ['has_response=yes', [['has_response', 'invalid_type']]],
    ['has_response=1', [['has_response', 'invalid_type']]],
    ['has_media=yes', [['has_media', 'invalid_type']]],
    ['has_response=', [['has_response', 'invalid_type']]],
    ['sort=date', [['sort', 'invalid_value']]],
    ['sort=Highest', [['sort', 'invalid_value']]],
  ])('refuses %s', (queryString, expected) => {
    expect(summarise(searchFromQueryString(queryString))).toEqual(expected);
  });

  it.each([
    ['', { limit: 20 }],
    ['rating=05', { rating: 5, limit: 20 }],
    ['rating=1&limit=1', { rating: 1, limit: 1 }],
    ['limit=100', { limit: 100 }],
    ['min_rating=3.5', { min_rating: 3.5, limit: 20 }],
    ['min_rating=1', { min_rating: 1, limit: 20 }],
    ['min_rating=5.0', { min_rating: 5, limit: 20 }],
    ['since=2024-02-29&until=2024-02-29', { since: '2024-02-29', until: '2024-02-29', limit: 20 }],
    ['query=%20on%20time%20', { query: ' on time ', limit: 20 }],
    ['query=', { query: '', limit: 20 }],
    [`query=${'x'.repeat(200)}`, { query: 'x'.repeat(200), limit: 20 }],
    ['mentions_technician=%20%20mike%20', { mentions_technician: 'Michael Reyes', limit: 20 }],
    ['mentions_technician=MICHAEL%20%20REYES', { mentions_technician: 'Michael Reyes', limit: 20 }],
    ['mentions_technician=jos%C3%A9%20n%C3%BA%C3%B1ez', { mentions_technician: 'José Núñez', limit: 20 }],
    ['mentions_technician=Tom%20b.', { mentions_technician: 'Tom Becker', limit: 20 }],
    ['mentions_technician=Luke%20Ostrowski', { mentions_technician: 'Luke Ostrowski', limit: 20 }],
    ['mentions_service=leak-repair', { mentions_service: 'leak-repair', limit: 20 }],
    ['mentions_service=%20AC-Repair', { mentions_service: 'ac-repair', limit: 20 }],
    ['aspect=price', { aspect: 'price', limit: 20 }],
    ['aspect=%20Punctuality%20', { aspect: 'punctuality', limit: 20 }],
    ['aspect=warranty', { aspect: 'warranty', limit: 20 }],
    ['aspect_sentiment=negative', { aspect_sentiment: 'negative', limit: 20 }],
    ['aspect=price&aspect_sentiment=neutral', { aspect: 'price', aspect_sentiment: 'neutral', limit: 20 }],
    ['has_response=true', { has_response: true, limit: 20 }],
    ['has_media=true&has_response=false', { has_media: true, has_response: false, limit: 20 }],
    ['has_response=false&sort=lowest', { has_response: false, sort: 'lowest', limit: 20 }],
    ['sort=highest', { sort: 'highest', limit: 20 }],
    ['sort=newest', { sort: 'newest', limit: 20 }],
  ])('accepts %j', (queryString, expected) => {
    expect(searchFromQueryString(queryString)).toEqual({ ok: true, query: expected });
  });

  it('reports every problem of one request at once', () => {
    const result = searchFromQueryString('rating=9&limit=0&since=2024-02-30&until=2024-01-01&query=ok');
    expect(summarise(result)).toEqual([
      ['rating', 'too_big'],
      ['since', 'invalid_format'],
      ['limit', 'too_small'],
    ]);
    const withUnknown = searchFromQueryString('foo=1&rating=9&rating=8&bar=2&limit=abc');
    expect(summarise(withUnknown)).toEqual([
      ['foo', 'unrecognized_parameter'],
      ['rating', 'repeated_parameter'],
      ['bar', 'unrecognized_parameter'],
      ['limit', 'invalid_type'],
    ]);
    const withNames = searchFromQueryString('rating=7&mentions_technician=Nobody&mentions_service=nothing&aspect=vibes&aspect_sentiment=mixed');
    expect(summarise(withNames)).toEqual([
      ['rating', 'too_big'],
      ['aspect_sentiment', 'invalid_value'],
      ['mentions_technician', 'unknown_technician'],
      ['mentions_service', 'unknown_service'],
      ['aspect', 'unknown_aspect'],
    ]);
  });

  it('gives messages that say what is allowed', () => {
    const [unknown] = issuesOf(searchFromQueryString('order=date'));
    expect(unknown!.message).toContain('rating, min_rating, since, until, query, mentions_technician, mentions_service, location, aspect, aspect_sentiment, has_response, has_media, sort, limit');
    const [technician] = issuesOf(searchFromQueryString('mentions_technician=Nobody'));
    expect(technician!.message).toContain('"Nobody"');
    for (const t of business.technicians) expect(technician!.message).toContain(t.name);
    expect(technician!.message).toContain('Mike');
    const [service] = issuesOf(searchFromQueryString('mentions_service=plumbing'));
    for (const s of business.services) expect(service!.message).toContain(s.id);
    const [aspect] = issuesOf(searchFromQueryString('aspect=on-time'));
    expect(aspect!.message).toBe(`no aspect has the id "on-time"; known aspects: ${SYNTHETIC_ASPECTS.join(', ')}`);
    const [sentiment] = issuesOf(searchFromQueryString('aspect_sentiment=bad'));
    expect(sentiment!.message).toBe('must be one of positive, neutral, negative');
    const [range] = issuesOf(searchFromQueryString('since=2024-05-02&until=2024-05-01'));
    expect(range!.message).toBe('must not be after until (2024-05-01)');
    const [date] = issuesOf(searchFromQueryString('since=2024-02-30'));
    expect(date!.message).toMatch(/YYYY-MM-DD/);
    const [repeated] = issuesOf(searchFromQueryString('limit=1&limit=2&limit=3'));
    expect(repeated!.message).toBe('must be given at most once (given 3 times)');
    for (const issue of issuesOf(searchFromQueryString('rating=x&min_rating=9&limit=0&query=' + 'q'.repeat(300)))) {
      expect(issue.message).not.toMatch(/Invalid input|Too big|Too small/);
    }
  });

  it('converts only strict digits and leaves the rest for the schema to refuse', () => {
    expect(parseSearchParams(new URLSearchParams('rating=3&min_rating=2.5&limit=10&query=5'))).toEqual({
      input: { rating: 3, min_rating: 2.5, limit: 10, query: '5' },
      issues: [],
    });
    expect(parseSearchParams(new URLSearchParams('rating=2.5&limit=1e2&min_rating=NaN'))).toEqual({
      input: { rating: '2.5', limit: '1e2', min_rating: 'NaN' },
      issues: [],
    });
  });

  it('judges nothing itself: it only reports unknown and repeated names', () => {
    expect(parseSearchParams(new URLSearchParams('rating=9&foo=1&limit=1&limit=2&since=never&has_response=yes'))).toEqual({
      input: { rating: 9, since: 'never', has_response: 'yes' },
      issues: [
        expect.objectContaining({ path: ['foo'], code: 'unrecognized_parameter' }),
        expect.objectContaining({ path: ['limit'], code: 'repeated_parameter' }),
      ],
    });
  });
});

describe('resolveSearchQuery (typed arguments, as MCP passes them)', () => {
  it.each([
    [{ rating: '5' }, [['rating', 'invalid_type']]],
    [{ rating: 5.5 }, [['rating', 'invalid_type']]],
    [{ min_rating: Number.NaN }, [['min_rating', 'invalid_type']]],
    [{ limit: 101, cursor: 'abc' }, [['limit', 'too_big'], ['cursor', 'unrecognized_parameter']]],
    [{ query: 42 }, [['query', 'invalid_type']]],
    [{ mentions_technician: ['Mike'] }, [['mentions_technician', 'invalid_type']]],
    [{ aspect: 3 }, [['aspect', 'invalid_type']]],
    [{ aspect: 'Bogus', aspect_sentiment: 'negative' }, [['aspect', 'unknown_aspect']]],
    [{ aspect_sentiment: 1 }, [['aspect_sentiment', 'invalid_value']]],
    [{ since: '2024-06-01', until: '2024-05-31' }, [['since', 'since_after_until']]],
    [null, [['', 'invalid_type']]],
    ['rating=5', [['', 'invalid_type']]],
  ])('refuses %j', (input, expected) => {
    expect(summarise(resolveSearchQuery(input, index))).toEqual(expected);
  });

  it('says what the whole input should be when it is not an object', () => {
    expect(resolveSearchQuery(null, index)).toEqual({
      ok: false,
      issues: [{ path: [], message: 'search parameters must be an object', code: 'invalid_type' }],
    });
    expect(issuesOf(resolveSearchQuery({ query: 42 }, index))[0]!.message).toBe('must be a string');
  });

  it('resolves aliases and applies the default limit', () => {
    expect(resolveSearchQuery({ mentions_technician: 'pepe', rating: 4 }, index)).toEqual({
      ok: true,
      query: { mentions_technician: 'José Núñez', rating: 4, limit: 20 },
    });
  });
});
