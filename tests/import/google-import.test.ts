/**
 * `npm run import -- google …` run as a user runs it, on a copy of the small test content: the first
 * import, re-imports (unchanged, newer, with the owner's own edits), --prune, --dry-run, --strict, and
 * a build that publishes what was imported.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { copySmallContent, findByAuthor, fixture, readReviews, runImport, snapshot, emptyFolder } from './harness.ts';

const TAKEOUT = fixture('google-takeout.json');
const LATER = fixture('google-takeout-later.json');
const idOf = (reviewId: string) => deriveReviewId('google', reviewId);

describe('npm run import -- google <takeout file>', () => {
  let content: string;
  beforeAll(async () => {
    content = await copySmallContent();
  });

  it('adds each review with a stable id, keeps the original of translated text, and ends with the summary', async () => {
    const run = await runImport(content, ['google', TAKEOUT]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.summary).toBe('Summary: 5 added, 0 updated, 0 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.');
    expect(run.stdout).toContain(`skipped ${TAKEOUT}, review AbFvOqNoTeXt5tArS0nLy_1Qa2Ws3Ed4Rf5Tg6Y: a rating without text`);
    expect(run.stdout).toContain(`skipped ${TAKEOUT}, review AbFvOqUnSp3c1f13d_Zz9Yy8Xx7Ww6Vv5Uu4Tt3, field starRating: must be ONE, TWO, THREE, FOUR or FIVE`);

    const reviews = await readReviews(content);
    const translated = reviews.get(idOf('AbFvOqTr1sLaTeD0nE_es9Xw2Qe4Rt6Yu8Io0Pa'))!;
    expect(translated).toEqual({
      id: idOf('AbFvOqTr1sLaTeD0nE_es9Xw2Qe4Rt6Yu8Io0Pa'),
      rating: 5,
      date: '2025-12-06',
      text: 'Muy buen servicio. Dana nos explicó todo sobre el calentador nuevo y dejó todo limpio.',
      author: 'María José Fernández',
      verified: true,
      source: 'google',
      response: { text: '¡Muchas gracias, María José!', date: '2025-12-07' },
      // Google's translation apart, labelled; the original's language detected (issue 43 item 3).
      language: 'es',
      translation: { text: 'Very good service. Dana explained everything about the new heater and left everything clean.', language: 'en', by: 'google' },
      file: 'google-2025-12.json',
    });
    // German is beyond the detector: the translation is kept, the language left unsaid.
    const german = reviews.get(idOf('AbFvOqTr2sLaTeD0nE_de1Zx3We5Rt7Yu9Io1Pb'))!;
    expect(german.text).toBe('Pünktlich und sauber gearbeitet, Mike hat den Brenner in 40 Minuten getauscht.');
    expect(german.language).toBeUndefined();
    expect(german.translation).toEqual({ text: 'Punctual and clean work, Mike replaced the burner in 40 minutes.', language: 'en', by: 'google' });
    const anonymous = reviews.get(idOf('AbFvOqAn0nYm0uS_9Kq1Lw3Ne5Rb7Tc9Vd1Xe3Z'))!;
    expect(anonymous.author).toBe('Anonymous');
    expect(anonymous.response).toEqual({ text: expect.stringContaining('Our quotes are estimates'), date: '2025-11-16' });
    // An edited review keeps the date it was first posted on, so its URL does not move.
    expect(reviews.get(idOf('AbFvOqEd1tEd_R3v13w5Hq7Jw9Kx1Ly3Mz5Na7B'))!.date).toBe('2025-07-09');
    // The hand-written reviews are where they were.
    expect(reviews.get('r-0001')!.file).toBe('2025-01.json');
  });

  it('writes each file sorted by date then id, as two-space JSON with a final newline', async () => {
    const text = await readFile(path.join(content, 'reviews', 'google-2025-11.json'), 'utf8');
    const reviews = JSON.parse(text) as { id: string; date: string }[];
    expect(text).toBe(`${JSON.stringify(reviews, null, 2)}\n`);
    expect(reviews.map((r) => r.date)).toEqual(['2025-11-15', '2025-11-28']);
    expect(Object.keys(reviews[0]!)).toEqual(['id', 'rating', 'date', 'text', 'author', 'verified', 'source', 'response']);
  });

  it('re-imports the same export without touching a single file', async () => {
    const before = await snapshot(content);
    const run = await runImport(content, ['google', TAKEOUT]);
    expect(run.code).toBe(0);
    expect(run.summary).toBe('Summary: 0 added, 0 updated, 5 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.');
    expect(await snapshot(content)).toEqual(before);
  });

  it('keeps the owner’s tags and verified through a newer export, which updates text, rating and reply', async () => {
    const chrisId = idOf('AbFvOqEd1tEd_R3v13w5Hq7Jw9Kx1Ly3Mz5Na7B');
    const file = path.join(content, 'reviews', 'google-2025-07.json');
    const [chris] = JSON.parse(await readFile(file, 'utf8'));
    Object.assign(chris, { technicians: ['Dana'], services: ['ac-repair'], service_area: 'Chatham' });
    const juergenFile = path.join(content, 'reviews', 'google-2025-11.json');
    const november = JSON.parse(await readFile(juergenFile, 'utf8'));
    november[1].verified = false;
    await writeFile(file, `${JSON.stringify([chris], null, 2)}\n`);
    await writeFile(juergenFile, `${JSON.stringify(november, null, 2)}\n`);
    const untouched = (await snapshot(content))['reviews/google-2025-12.json'];

    const dry = await runImport(content, ['google', LATER, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.summary).toBe('Summary (dry run, nothing written): 2 added, 2 updated, 2 unchanged, 0 skipped, 0 removed.');
    expect(dry.stdout).toContain(`~ ${chrisId}  rating, text changed in reviews/google-2025-07.json`);
    expect(dry.stdout).toContain(`~ ${idOf('AbFvOqTr2sLaTeD0nE_de1Zx3We5Rt7Yu9Io1Pb')}  response changed in reviews/google-2025-11.json`);
    expect(dry.stdout).toContain(`+ ${idOf('AbFvOqNeWeR0lIv1a_Pk7Lm9No1Pq3Rs5Tu7Vw9')}  added to reviews/google-2026-01.json`);

    const run = await runImport(content, ['google', LATER]);
    expect(run.code).toBe(0);
    expect(run.summary).toBe('Summary: 2 added, 2 updated, 2 unchanged, 0 skipped, 0 removed.');
    const reviews = await readReviews(content);
    expect(reviews.get(chrisId)).toMatchObject({ rating: 5, technicians: ['Dana'], services: ['ac-repair'], service_area: 'Chatham', verified: true });
    expect(reviews.get(chrisId)!.text).toContain('Mike checked on it again in September');
    const juergen = reviews.get(idOf('AbFvOqTr2sLaTeD0nE_de1Zx3We5Rt7Yu9Io1Pb'))!;
    expect(juergen).toMatchObject({ verified: false, response: { text: 'Danke, Jürgen! Mike freut sich.', date: '2025-12-01' } });
    // The review that had no text now has some: added. The one the later export lacks stays without --prune.
    expect(findByAuthor(reviews, 'Dmitri Volkov').date).toBe('2025-10-11');
    expect(reviews.has(idOf('AbFvOqLaTeN1gHt_Ch1c4g0Pq2Rs4Tu6Vw8Xy0Z'))).toBe(true);
    expect((await snapshot(content))['reviews/google-2025-12.json']).toBe(untouched);
  });

  it('--prune removes the Google reviews the export no longer lists, and nothing else', async () => {
    const gone = idOf('AbFvOqLaTeN1gHt_Ch1c4g0Pq2Rs4Tu6Vw8Xy0Z');
    const run = await runImport(content, ['google', LATER, '--prune']);
    expect(run.code).toBe(0);
    expect(run.summary).toBe('Summary: 0 added, 0 updated, 6 unchanged, 0 skipped, 1 removed.');
    expect(run.stdout).toContain(`- ${gone}  removed from reviews/google-2025-12.json (no longer in the export)`);
    const reviews = await readReviews(content);
    expect(reviews.has(gone)).toBe(false);
    // Hand-written reviews with source google are not the importer's to remove.
    expect(reviews.has('r-0001')).toBe(true);
    expect(reviews.size).toBe(8 + 6);
  });

  it('builds: the imported reviews are published with the mentions in their text and the owner’s tags', async () => {
    const { distDir } = await buildTestSite({ contentDir: content });
    const dataset = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8'));
    const byId = new Map(dataset.reviews.map((r: { id: string }) => [r.id, r]));
    expect(byId.get(idOf('AbFvOqTr1sLaTeD0nE_es9Xw2Qe4Rt6Yu8Io0Pa'))).toMatchObject({ technicians: ['Dana Whitfield'], source: 'google', response: { date: '2025-12-07' } });
    expect(byId.get(idOf('AbFvOqEd1tEd_R3v13w5Hq7Jw9Kx1Ly3Mz5Na7B'))).toMatchObject({ technicians: ['Michael Reyes', 'Dana Whitfield'], services: ['ac-repair'], service_area: 'Chatham' });
    expect(byId.get(idOf('AbFvOqNeWeR0lIv1a_Pk7Lm9No1Pq3Rs5Tu7Vw9'))).toMatchObject({ services: ['ac-repair'], author: 'Olivia Park' });
    // verified: false, set by the owner, is not published.
    expect(byId.has(idOf('AbFvOqTr2sLaTeD0nE_de1Zx3We5Rt7Yu9Io1Pb'))).toBe(false);
  }, 120_000);
});

describe('npm run import -- google <API pages>', () => {
  it('reads every page; a review listed on two pages is imported once, as its newest copy', async () => {
    const content = await copySmallContent();
    const run = await runImport(content, ['google', fixture('google-api-page-1.json'), fixture('google-api-page-2.json'), '--author-style', 'initials']);
    expect(run.code).toBe(0);
    expect(run.summary).toBe('Summary: 4 added, 0 updated, 0 unchanged, 2 skipped (1 rating without text, 1 listed twice), 0 removed.');
    const reviews = await readReviews(content);
    const robert = reviews.get(idOf('AbFvOqkY8zR2c5Hw-Tn4pQ7xLmB3vG9aK1sE0fU'))!;
    expect(robert).toMatchObject({ rating: 3, author: 'Robert C.' });
    expect(robert.text).toContain('took $50 off');
    expect(findByAuthor(reviews, 'Latoya W.').response).toEqual({ text: "Thank you, Latoya! We'll pass this along to Mike.", date: '2025-11-04' });
    expect(findByAuthor(reviews, 'Heather O.').date).toBe('2025-09-21');
    expect(findByAuthor(reviews, 'Sam').date).toBe('2025-08-30');
  });

  it('takes dates in the business’s time zone with --time-zone', async () => {
    const content = await copySmallContent();
    await runImport(content, ['google', TAKEOUT, '--time-zone', 'America/Chicago']);
    const reviews = await readReviews(content);
    // 03:05 UTC on 2 December is 21:05 on 1 December in Illinois.
    expect(reviews.get(idOf('AbFvOqLaTeN1gHt_Ch1c4g0Pq2Rs4Tu6Vw8Xy0Z'))!.date).toBe('2025-12-01');
  });
});

describe('npm run import with bad input', () => {
  it('--strict refuses the whole import on an invalid review, and writes nothing', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const run = await runImport(content, ['google', TAKEOUT, '--strict']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refused (--strict): 1 invalid review; nothing was written.');
    expect(run.stdout).toContain('field starRating: must be ONE, TWO, THREE, FOUR or FIVE');
    expect(run.summary).toBe('Summary (refused, nothing written): 5 added, 0 updated, 0 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.');
    expect(await snapshot(content)).toEqual(before);
  });

  it('--strict lets a rating without text go by: it is not invalid, only not something the content model holds', async () => {
    const content = await copySmallContent();
    const run = await runImport(content, ['google', fixture('google-api-page-1.json'), fixture('google-api-page-2.json'), '--strict']);
    expect(run.code).toBe(0);
  });

  it.each([
    ['a file that is not JSON', fixture('yelp-reviews.csv'), 'not valid JSON'],
    ['JSON that is not a Google export', fixture('form-mapping.json'), 'is not a Google reviews export'],
    ['a missing file', fixture('no-such-file.json'), 'cannot read'],
  ])('stops on %s, naming the file, and writes nothing', async (_what, file, message) => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const run = await runImport(content, ['google', TAKEOUT, file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: `);
    expect(run.stderr).toContain(message);
    expect(run.summary).toMatch(/^Summary \(refused, nothing written\)/);
    expect(await snapshot(content)).toEqual(before);
  });

  it('refuses to import into a review file that is broken, rather than guess', async () => {
    const content = await copySmallContent();
    await writeFile(path.join(content, 'reviews', '2025-03.json'), '[{"id": "r-0100",');
    const run = await runImport(content, ['google', TAKEOUT]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('reviews/2025-03.json: not valid JSON');
  });

  it('explains its command line', async () => {
    const folder = await emptyFolder();
    const run = await runImport(folder, ['gogle', TAKEOUT, '--author-style', 'nicknames']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown format "gogle": google, csv, json or jobs');
    expect(run.stderr).toContain('--author-style');
    expect(run.stderr).toContain('usage: npm run import -- <google|csv|json|jobs> <file…> [options]');
  });
});
