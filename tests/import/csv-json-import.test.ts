/**
 * `npm run import -- csv …` and `-- json …` as a user runs them, and the folder-level guarantees:
 * all or nothing, one import at a time.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { lockContentFolder } from '../../scripts/import/import-fs.ts';
import type { PublishedMedia } from '../../core/schemas/published.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { copySmallContent, emptyFolder, findByAuthor, fixture, readReviews, runImport, snapshot } from './harness.ts';

describe('npm run import -- csv', () => {
  it('reads a BOM, quoted line breaks and quotes, star strings and written-out dates, reporting each bad row', async () => {
    const content = await copySmallContent();
    const file = fixture('yelp-reviews.csv');
    const run = await runImport(content, ['csv', file, '--source', 'yelp']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('skipped'))).toEqual([
      `skipped ${file}, row 4, review Kv01ZzP7, field Rating: is empty: a review needs a star rating`,
      `skipped ${file}, row 6, review Hs4Tb8Nw, field Rating: "4.5" is not a whole number of stars from 1 to 5`,
      `skipped ${file}, row 7, review Wm2Xc5Vb, field Date: "Friday; June 13 2025" is not a date in a known format (2026-11-14, 11/14/2026, Nov 14, 2026)`,
    ]);
    // A reply the build would refuse (dated before the review) is set aside; the customer's review is kept.
    expect(run.stdout).toContain(
      `set aside: ${file}, row 8, review Pc8Rr1Qm: the reply ("Thank you!") is dated 2025-10-19, before the review (2025-10-20): the review is imported without it; correct the reply's date in the export and import again`,
    );
    expect(run.summary).toBe('Summary: 4 added, 0 updated, 0 unchanged, 3 skipped (3 invalid), 0 removed.');
    const reviews = await readReviews(content);
    expect(reviews.get(deriveReviewId('yelp', 'Yx9kQ1fT2'))).toMatchObject({
      rating: 5,
      date: '2025-11-14',
      // The export's Windows line ends (\r\n inside the quoted text) are plain line breaks in the content.
      text: 'Dana replaced the thermocouple on our water heater.\nShe explained every step, and the price matched the quote, to the dollar.',
      author: 'Marcus Thompson',
      source: 'yelp',
      source_url: 'https://www.yelp.com/biz/brightline-heating-and-air-springfield?hrid=Yx9kQ1fT2',
      file: 'yelp-2025-11.json',
    });
    expect(reviews.get(deriveReviewId('yelp', 'Bd3Jd9aaW'))).toMatchObject({
      rating: 4,
      text: 'Good AC repair. A little late, "but" they called ahead.',
      response: { text: "Thanks Priya, we're working on our arrival windows.", date: '2025-10-03' },
    });
    expect(findByAuthor(reviews, 'Grace Liu')).toMatchObject({ rating: 5, date: '2025-09-03' });
    const kept = reviews.get(deriveReviewId('yelp', 'Pc8Rr1Qm'))!;
    expect([kept.text, kept.response]).toEqual(['Great tune-up.', undefined]);
  });

  it('guesses common headers whatever their case and punctuation ("Date Posted", "Review Content", "Owner\'s Response")', async () => {
    const content = await copySmallContent();
    const file = path.join(path.dirname(content), 'platform.csv');
    await writeFile(
      file,
      [
        'Reviewer Name,Star Rating,Date Posted,Review Content,Owner\'s Response,Response Date,Review Title',
        'Nina Park,5,2026-03-02,"Fast and tidy.",Thanks Nina!,2026-03-03,Tidy work',
      ].join('\r\n'),
    );
    const run = await runImport(content, ['csv', file, '--source', 'direct']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(findByAuthor(await readReviews(content), 'Nina Park')).toMatchObject({
      rating: 5,
      date: '2026-03-02',
      text: 'Fast and tidy.',
      title: 'Tidy work',
      response: { text: 'Thanks Nina!', date: '2026-03-03' },
    });
  });

  it('--strict refuses the file on its first bad row and writes nothing', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const run = await runImport(content, ['csv', fixture('yelp-reviews.csv'), '--source', 'yelp', '--strict']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refused (--strict): 3 invalid reviews; nothing was written.');
    expect(await snapshot(content)).toEqual(before);
  });

  it('guesses a semicolon delimiter and the usual headers; day-first dotted dates, decimal commas; ids from date and author', async () => {
    const content = await copySmallContent();
    const file = fixture('crm-export-semicolon.csv');
    const run = await runImport(content, ['csv', file, '--source', 'crm']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`skipped ${file}, row 4, field Score: is empty: a review needs a star rating`);
    expect(run.stdout).toContain(`skipped ${file}, row 5: has 3 fields where the header has 5`);
    expect(run.stdout).toContain(`skipped ${file}, row 6, field Created: "31.02.2025" is not a calendar date`);
    expect(run.summary).toBe('Summary: 2 added, 0 updated, 0 unchanged, 3 skipped (3 invalid), 0 removed.');
    const reviews = await readReviews(content);
    expect(reviews.get(deriveReviewId('crm', '2025-11-14 Lukas Schmidt'))).toMatchObject({
      rating: 4,
      title: 'Good work',
      text: 'Solid furnace repair; Al was friendly.\nThe invoice arrived a week later though.',
    });
    expect(findByAuthor(reviews, 'Émilie Dubois')).toMatchObject({ rating: 5, date: '2025-12-02' });
    expect(findByAuthor(reviews, 'Émilie Dubois').title).toBeUndefined();
  });

  it('takes a mapping file for a form tool’s own headers; a blank name is Anonymous, a blank text is a rating without text', async () => {
    const content = await copySmallContent();
    const file = fixture('form-responses.csv');
    const run = await runImport(content, ['csv', file, '--mapping', fixture('form-mapping.json'), '--author-style', 'initials']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`skipped ${file}, row 5, field Timestamp: "13/02/2025 10:00:00" has no month 13: if the export writes the day first, pass --day-first`);
    expect(run.stdout).toContain(`skipped ${file}, row 6: a rating without text`);
    expect(run.summary).toBe('Summary: 3 added, 0 updated, 0 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.');
    const reviews = await readReviews(content);
    expect(findByAuthor(reviews, 'Beatriz A.')).toMatchObject({ source: 'direct', rating: 5, date: '2025-11-14' });
    expect(findByAuthor(reviews, 'Owen C.')).toMatchObject({ date: '2025-12-01', text: 'On time, clean, fair. The "tankless" unit is quiet.' });
    expect(findByAuthor(reviews, 'Anonymous')).toMatchObject({ rating: 3, date: '2026-01-06' });
  });

  it('flags override the mapping file, and a column that is not there is named with the headers that are', async () => {
    const content = await copySmallContent();
    const run = await runImport(content, ['csv', fixture('form-responses.csv'), '--mapping', fixture('form-mapping.json'), '--column', 'text=Comments']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no column "Comments" for text (the header row has: "Timestamp", "How would you rate us?", "Your name", "Tell us about your visit", "Email Address")');
  });

  it('asks for --source', async () => {
    const run = await runImport(await emptyFolder(), ['csv', fixture('yelp-reviews.csv')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--source: required for csv');
  });

  it('re-imports the same CSV without touching a file', async () => {
    const content = await copySmallContent();
    await runImport(content, ['csv', fixture('crm-export-semicolon.csv'), '--source', 'crm']);
    const before = await snapshot(content);
    const run = await runImport(content, ['csv', fixture('crm-export-semicolon.csv'), '--source', 'crm']);
    expect(run.summary).toBe('Summary: 0 added, 0 updated, 2 unchanged, 3 skipped (3 invalid), 0 removed.');
    expect(await snapshot(content)).toEqual(before);
  });
});

describe('npm run import -- json (the service’s own /reviews.json)', () => {
  let backup: string;
  beforeAll(async () => {
    backup = path.join((await buildTestSite()).distDir, 'reviews.json');
  }, 120_000);

  it('restores a backup into an empty folder: same ids, business.json, and the same published reviews', async () => {
    const folder = await emptyFolder();
    const run = await runImport(folder, ['json', backup]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('business.json written from the export');
    // content-small has 8 reviews, one of them unverified.
    expect(run.summary).toBe('Summary: 7 added, 0 updated, 0 unchanged, 0 skipped, 0 removed.');

    const restored = await buildTestSite({ contentDir: folder });
    const [before, after] = await Promise.all([readFile(backup, 'utf8'), readFile(path.join(restored.distDir, 'reviews.json'), 'utf8')]);
    // `updated` comes from the content folder's git history (docs/content.md): the backup's folder is in
    // git, the restored one is not, so only that field may differ. The photos come back from the backup's
    // media/ (no network): re-encoded from the published JPEG, so their names and sizes differ, nothing else.
    const photo = (m: PublishedMedia) => ({ type: m.type, alt: m.alt, width: m.width, height: m.height, video_url: m.video_url, widths: m.variants.map((v) => v.width) });
    const comparable = (text: string) =>
      JSON.parse(text, (key, value) => (key === 'updated' ? undefined : key === 'media' ? (value as PublishedMedia[]).map(photo) : value));
    expect(comparable(after)).toEqual(comparable(before));
    expect(comparable(after).reviews.filter((r: { media: unknown[] }) => r.media.length > 0)).toHaveLength(3);
    expect(run.stdout).toContain('Photos: 3 stored (3 new files), 0 not imported.');

    const again = await runImport(folder, ['json', backup]);
    expect(again.summary).toBe('Summary: 0 added, 0 updated, 7 unchanged, 0 skipped, 0 removed.');
  }, 120_000);

  it('--prune with a backup removes every published review the backup does not have, and no unpublished one', async () => {
    const content = await copySmallContent();
    await writeFile(path.join(content, 'reviews', '2025-03.json'), JSON.stringify([{ id: 'r-0100', rating: 4, date: '2025-03-01', text: 'Extra.', author: 'X', verified: true }]));
    const run = await runImport(content, ['json', backup, '--prune']);
    expect(run.summary).toBe('Summary: 0 added, 0 updated, 7 unchanged, 0 skipped, 1 removed.');
    const reviews = await readReviews(content);
    expect(reviews.has('r-0100')).toBe(false);
    expect([...reviews.values()].filter((r) => r.verified === false)).toHaveLength(1);
  }, 120_000);
});

describe('all or nothing', () => {
  it('puts back the reviews folder that an import killed between its two renames had set aside', async () => {
    const content = await copySmallContent();
    const before = await snapshot(path.join(content, 'reviews'));
    await rename(path.join(content, 'reviews'), path.join(content, '.reviews-retired-12345-abcd'));
    await mkdir(path.join(content, '.reviews-staging-12345-abcd'));
    const run = await runImport(content, ['google', fixture('google-takeout.json'), '--dry-run']);
    expect(run.code).toBe(0);
    // A dry run takes no lock and repairs nothing; the next real run does.
    const real = await runImport(content, ['google', fixture('google-takeout.json')]);
    expect(real.stderr).toContain('note: an earlier import was interrupted: reviews/ is back as it was before it');
    expect(real.summary).toBe('Summary: 5 added, 0 updated, 0 unchanged, 2 skipped (1 invalid, 1 rating without text), 0 removed.');
    const after = await snapshot(path.join(content, 'reviews'));
    for (const [file, state] of Object.entries(before)) expect(after[file]).toBe(state);
    expect(Object.keys(await snapshot(content)).some((f) => f.startsWith('.reviews-'))).toBe(false);
  });

  it('refuses to run beside another import of the same folder', async () => {
    const content = await copySmallContent();
    // This test's own process stands in for a running import: it holds the folder's lock.
    const held = await lockContentFolder(content);
    expect(held.ok).toBe(true);
    try {
      const before = await snapshot(path.join(content, 'reviews'));
      const run = await runImport(content, ['google', fixture('google-takeout.json')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`another import (process ${process.pid}) is writing ${content}`);
      expect(await snapshot(path.join(content, 'reviews'))).toEqual(before);
    } finally {
      if (held.ok) await held.release();
    }
  });

  it('takes over the lock of an import that died', async () => {
    const content = await copySmallContent();
    await writeFile(path.join(content, '.import.lock'), '999999999');
    const run = await runImport(content, ['google', fixture('google-takeout.json')]);
    expect(run.code).toBe(0);
    expect(Object.keys(await snapshot(content))).not.toContain('.import.lock');
  });
});
