/** HttpError: the one error answer of the sidecar takes only the statuses an error may have. */
import { describe, expect, it } from 'vitest';
import { ERROR_STATUSES, HttpError, toClientErrorStatus } from '../../sidecar/http/errors.ts';

describe('HttpError', () => {
  it('takes a typed status: a success status or a typo does not compile', () => {
    // @ts-expect-error 200 is not an error status
    expect(new HttpError(200, 'not_found', 'x').status).toBe(200);
    // @ts-expect-error 4040 is no status at all
    expect(new HttpError(4040, 'not_found', 'x').status).toBe(4040);
    expect(new HttpError(404, 'not_found', 'No such review.').toJSON()).toEqual({ error: 'not_found', message: 'No such review.' });
  });
});

describe('toClientErrorStatus', () => {
  it.each([
    [413, 413],
    [415, 415],
    [400, 400],
    [422, 400],
    [500, 400],
    [200, 400],
  ])('answers a library error of %i with %i', (given, answered) => {
    expect(toClientErrorStatus(given)).toBe(answered);
    expect(ERROR_STATUSES).toContain(answered);
  });
});
