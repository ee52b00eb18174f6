import { describe, expect, it } from 'vitest';
import { keepOriginalText, splitGoogleTranslation } from '../../scripts/import/google.ts';
import { detectLanguage } from '../../core/text/detect-language.ts';
import { applyAuthorStyle, deriveReviewId } from '../../scripts/import/record.ts';
import { dateOfTimestamp, parseExportDate, parseStarRating } from '../../scripts/import/values.ts';

describe('parseExportDate', () => {
  it.each([
    ['2026-11-14', '2026-11-14'],
    ['2026-11-14T23:59:59Z', '2026-11-14'],
    ['2026-11-14 08:00', '2026-11-14'],
    ['2026/11/4', '2026-11-04'],
    ['11/14/2026', '2026-11-14'],
    ['1/6/2026 8:15:00', '2026-01-06'],
    ['12/1/25 18:03:44', '2025-12-01'],
    ['14.11.2026', '2026-11-14'],
    ['Nov 14, 2026', '2026-11-14'],
    ['Nov. 4 2026', '2026-11-04'],
    ['November 14, 2026', '2026-11-14'],
    ['September 3 2025', '2025-09-03'],
    ['Friday, November 14, 2026', '2026-11-14'],
    ['14 Nov 2026', '2026-11-14'],
    ['3rd', undefined],
  ])('reads %j as %j', (text, expected) => {
    const read = parseExportDate(text, { dayFirst: false });
    expect(read.ok ? read.value : undefined).toBe(expected);
  });

  it('reads day first when told to, and says so when a month-first date cannot be one', () => {
    expect(parseExportDate('03/04/2026', { dayFirst: true })).toEqual({ ok: true, value: '2026-04-03' });
    expect(parseExportDate('03/04/2026', { dayFirst: false })).toEqual({ ok: true, value: '2026-03-04' });
    const wrong = parseExportDate('13/02/2025', { dayFirst: false });
    expect(wrong.ok ? '' : wrong.message).toContain('pass --day-first');
  });

  it.each(['2025-02-29', '31.02.2025', 'Feb 30, 2024', 'Smarch 3, 2025', ''])('refuses %j', (text) => {
    expect(parseExportDate(text, { dayFirst: false }).ok).toBe(false);
  });
});

describe('dateOfTimestamp', () => {
  it('takes the calendar date in the given time zone', () => {
    expect(dateOfTimestamp('2025-12-02T03:05:00Z', 'UTC')).toEqual({ ok: true, value: '2025-12-02' });
    expect(dateOfTimestamp('2025-12-02T03:05:00Z', 'America/Chicago')).toEqual({ ok: true, value: '2025-12-01' });
    expect(dateOfTimestamp('2025-12-02T03:05:00.123456Z', 'Europe/Berlin')).toEqual({ ok: true, value: '2025-12-02' });
  });

  it('refuses what is not an RFC 3339 timestamp', () => {
    expect(dateOfTimestamp('12/02/2025', 'UTC').ok).toBe(false);
    expect(dateOfTimestamp('2025-13-45T00:00:00Z', 'America/Chicago').ok).toBe(false);
  });
});

describe('parseStarRating', () => {
  it.each([
    ['5', 5],
    ['4.0', 4],
    ['4,0', 4],
    ['4/5', 4],
    ['3 out of 5', 3],
    ['1 star', 1],
    ['5 stars', 5],
    ['★★★★☆', 4],
    ['★★★★★', 5],
    ['FIVE', 5],
    ['two', 2],
  ])('reads %j as %i', (text, stars) => {
    expect(parseStarRating(text)).toEqual({ ok: true, value: stars });
  });

  it.each(['', '4.5', '0', '6', '10/10', 'Recommended', 'five-ish'])('refuses %j', (text) => {
    expect(parseStarRating(text).ok).toBe(false);
  });
});

describe('applyAuthorStyle', () => {
  it.each([
    ['Latoya Williams', 'initials', 'Latoya W.'],
    ['Denise Marie Okafor', 'initials', 'Denise O.'],
    ["Heather O'Brien-Lake", 'initials', 'Heather O.'],
    ['Émilie Dubois', 'initials', 'Émilie D.'],
    ['Sam', 'initials', 'Sam'],
    ['  Latoya   Williams ', 'full', 'Latoya   Williams'],
  ] as const)('%j (%s) → %j', (name, style, expected) => {
    expect(applyAuthorStyle(name, style)).toBe(expected);
  });
});

describe('keepOriginalText', () => {
  it('keeps the original after Google’s translation', () => {
    expect(keepOriginalText('(Translated by Google) Very good.\n\n(Original)\nMuy bueno.')).toBe('Muy bueno.');
  });
  it('keeps the original before Google’s translation', () => {
    expect(keepOriginalText('Sehr gut.\n\n(Translated by Google)\nVery good.')).toBe('Sehr gut.');
  });
  it('leaves other text alone', () => {
    expect(keepOriginalText('  Original review: great.  ')).toBe('Original review: great.');
  });
});

describe('splitGoogleTranslation', () => {
  it.each([
    ['(Translated by Google) Very good.\n\n(Original)\nMuy bueno.', { original: 'Muy bueno.', translation: 'Very good.' }],
    ['Sehr gut.\n\n(Translated by Google)\nVery good.', { original: 'Sehr gut.', translation: 'Very good.' }],
    ['Great work.', { original: 'Great work.' }],
    ['(Translated by Google)\n\n(Original)\nMuy bueno.', { original: 'Muy bueno.' }],
  ])('splits %j into the original and the translation', (comment, parts) => {
    expect(splitGoogleTranslation(comment)).toEqual(parts);
  });
});

describe('detectLanguage', () => {
  it.each([
    ['Muy buen servicio. Dana nos explicó todo sobre el calentador nuevo y dejó todo limpio.', 'es'],
    ['Llegaron a tiempo y arreglaron la fuga del calentador.', 'es'],
    ['Mike was on time and fixed the furnace in an hour. Great job.', 'en'],
    ['Pünktlich und sauber gearbeitet, Mike hat den Brenner in 40 Minuten getauscht.', 'und'],
    ['Perfect!', 'und'],
  ])('reads %j as %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });
});

describe('deriveReviewId', () => {
  it('is stable, case-sensitive in the source id, and a valid content id', () => {
    const id = deriveReviewId('google', 'AbFvOq_x-Z');
    expect(id).toBe(deriveReviewId('google', 'AbFvOq_x-Z'));
    expect(id).not.toBe(deriveReviewId('google', 'abfvoq_x-z'));
    expect(id).toMatch(/^google-[0-9a-f]{16}$/);
  });
});
