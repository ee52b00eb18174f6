/** The pieces every live read route shares (sidecar/http/read-route.ts, errors.ts): one split of the target, one library-error mapping, one cap on listed issues. */
import { describe, expect, it } from 'vitest';
import { capIssues, MAX_REPORTED_ISSUES } from '../../core/schemas/errors.ts';
import { fromLibraryClientError } from '../../sidecar/http/errors.ts';
import { splitTarget } from '../../sidecar/http/read-route.ts';

describe('splitTarget', () => {
  it.each([
    ['/api/reviews/search', { path: '/api/reviews/search', query: '', search: '' }],
    ['/api/reviews/search?', { path: '/api/reviews/search', query: '', search: '?' }],
    ['/a?q=x?y&b=1', { path: '/a', query: 'q=x?y&b=1', search: '?q=x?y&b=1' }],
  ])('%s', (target, parts) => expect(splitTarget(target)).toEqual(parts));
});

describe('fromLibraryClientError', () => {
  it.each([
    [{ status: 413, message: 'request entity too large' }, 413, 'payload_too_large', 'request entity too large'],
    [{ statusCode: 415, message: 'unsupported charset' }, 415, 'unsupported_media_type', 'unsupported charset'],
    [{ status: 400, expose: false, message: 'internal detail' }, 400, 'bad_request', 'Bad request.'],
    [{ status: 418, message: 'teapot' }, 400, 'bad_request', 'teapot'],
  ])('%j → %i %s', (error, status, code, message) => {
    expect(fromLibraryClientError(error)?.toJSON()).toEqual({ error: code, message });
    expect(fromLibraryClientError(error)?.status).toBe(status);
  });

  it('lets a caller word it and name its code; 413 and 415 keep theirs', () => {
    const word = { code: 'invalid_request' as const, message: () => 'The hub request body could not be read.' };
    expect(fromLibraryClientError({ status: 400 }, word)?.toJSON()).toEqual({ error: 'invalid_request', message: 'The hub request body could not be read.' });
    expect(fromLibraryClientError({ status: 413 }, word)?.code).toBe('payload_too_large');
  });

  it('leaves anything that is not a library client error to the unexpected-error path', () => {
    for (const error of [new Error('boom'), { status: 500 }, { status: '400' }, null, 'text']) expect(fromLibraryClientError(error)).toBeUndefined();
  });
});

describe('capIssues', () => {
  it('lists the first MAX_REPORTED_ISSUES with client names cut short, and counts the rest', () => {
    const issues = Array.from({ length: MAX_REPORTED_ISSUES + 3 }, (_, i) => ({ path: ['x'.repeat(100), i], message: 'is not a known parameter' }));
    const { listed, more } = capIssues(issues);
    expect(listed).toHaveLength(MAX_REPORTED_ISSUES);
    expect(more).toBe(3);
    expect(listed[0]!.path).toEqual([`${'x'.repeat(64)}…`, 0]);
  });
});
