/**
 * The review log across real publishes of a real git content repository (issue 27, "Done when"): six
 * commits — add, edit, hide, delete, a photo, a revert — then a rewritten history that drops a review,
 * each built by the real build into one DIST_DIR. After each, Go's reference packages
 * (tools/tlog-check) verify the build's checkpoint, tiles and entry bundles, and that it extends every
 * earlier checkpoint. At the end `npm run verify` accepts a CDN copy of the build and names a review
 * edited by hand in that copy's /reviews.json.
 */
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../helpers/git.ts';
import { decodeEntities } from '../helpers/html.ts';
import { runScript } from '../helpers/run-script.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startStaticServer } from '../helpers/static-server.ts';
import { runTlogCheck } from '../helpers/tlog-check.ts';

const PUBLIC = 'https://reviews.example.com';
const ORIGIN = 'reviews.example.com/log';
/** Each step is a full build: tens of seconds on a busy machine. */
const STEP_TIMEOUT_MS = 240_000;

type Review = { id: string; text: string; verified: boolean; media?: object[] } & Record<string, unknown>;
type Entry = { action: string; review_id: string; reason?: string };

let work: string;
let repo: string;
let content: string;
let distDir: string;
const checkpoints: string[] = [];

const git = (...args: string[]) => runGit(repo, args);
const reviewsFile = (month: string) => path.join(content, 'reviews', `${month}.json`);
const readReviews = async (month: string): Promise<Review[]> => JSON.parse(await readFile(reviewsFile(month), 'utf8'));
const writeReviews = (month: string, reviews: Review[]) => writeFile(reviewsFile(month), `${JSON.stringify(reviews, null, 2)}\n`);
async function changeReviews(month: string, change: (reviews: Review[]) => Review[]) {
  await writeReviews(month, change(await readReviews(month)));
}

/** Commits, builds, and has Go check the new log against every earlier checkpoint; returns the new entries. */
async function publish(message: string): Promise<Entry[]> {
  await git('add', '-A', 'content');
  await git('commit', '--quiet', '--allow-empty', '-m', message);
  await buildTestSite({ contentDir: content, publicUrl: PUBLIC, outDir: distDir });
  const logDir = path.join(await realpath(distDir), 'log');
  const report = await runTlogCheck(logDir, { olds: checkpoints, entries: true });
  expect(report.errors, message).toEqual([]);
  expect(report).toMatchObject({ ok: true, origin: ORIGIN, consistent_with: checkpoints.map((c) => Number(c.split('\n')[1])) });
  const before = checkpoints.length === 0 ? 0 : Number(checkpoints.at(-1)!.split('\n')[1]);
  checkpoints.push(await readFile(path.join(logDir, 'checkpoint'), 'utf8'));
  return report.entries!.slice(before).map((e) => JSON.parse(e) as Entry);
}
const summary = (entries: Entry[]) => entries.map((e) => `${e.action} ${e.review_id}${e.reason ? ` ${e.reason}` : ''}`);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'six-publishes-'));
  repo = path.join(work, 'reviews-content');
  content = path.join(repo, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, content, { recursive: true });
  await runGit(work, ['init', '--quiet', '--initial-branch=main', repo]);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the review log across published commits, checked by Go', () => {
  it('first publish: one publish entry per verified review', async () => {
    const entries = await publish('Content as it was');
    expect(entries.length).toBeGreaterThan(3);
    expect(new Set(entries.map((e) => e.action))).toEqual(new Set(['publish']));
  }, STEP_TIMEOUT_MS);

  it('add a review', async () => {
    await changeReviews('2025-02', (r) => [...r, { id: 'r-0100', rating: 2, date: '2025-02-20', text: 'The drain clogged again a week later.', author: 'Robin', verified: true }]);
    expect(summary(await publish('Add r-0100'))).toEqual(['publish r-0100']);
  }, STEP_TIMEOUT_MS);

  it('edit it', async () => {
    await changeReviews('2025-02', (r) => r.map((x) => (x.id === 'r-0100' ? { ...x, text: 'The drain clogged again a week later; they came back for free.' } : x)));
    expect(summary(await publish('Edit r-0100'))).toEqual(['update r-0100']);
  }, STEP_TIMEOUT_MS);

  it('hide a review, at the customer’s request', async () => {
    await changeReviews('2025-01', (r) => r.map((x) => (x.id === 'r-0002' ? { ...x, verified: false } : x)));
    await writeFile(path.join(content, 'withdrawn.json'), JSON.stringify({ 'r-0002': 'customer_request' }));
    expect(summary(await publish('Hide r-0002'))).toEqual(['withdraw r-0002 customer_request']);
  }, STEP_TIMEOUT_MS);

  let deletion: string;
  it('delete a review, a duplicate', async () => {
    await changeReviews('2025-02', (r) => r.filter((x) => x.id !== 'r-0007'));
    await writeFile(path.join(content, 'withdrawn.json'), JSON.stringify({ 'r-0002': 'customer_request', 'r-0007': 'duplicate' }));
    expect(summary(await publish('Delete r-0007'))).toEqual(['withdraw r-0007 duplicate']);
    deletion = (await git('rev-parse', 'HEAD')).stdout.trim();
  }, STEP_TIMEOUT_MS);

  it('add a photo to a review (derived by the build: no entry, the same tree)', async () => {
    await mkdir(path.join(content, 'media', 'r-0008'), { recursive: true });
    await cp(path.join(content, 'media', 'r-0001', 'furnace.jpg'), path.join(content, 'media', 'r-0008', 'unit.jpg'));
    await changeReviews('2025-02', (r) => r.map((x) => (x.id === 'r-0008' ? { ...x, media: [{ file: 'media/r-0008/unit.jpg' }] } : x)));
    expect(await publish('Photo for r-0008')).toEqual([]);
    const served = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as { reviews: Review[] };
    expect(served.reviews.find((r) => r.id === 'r-0008')!.media).toHaveLength(1);
  }, STEP_TIMEOUT_MS);

  it('revert the deletion: the review is published again', async () => {
    await git('revert', '--no-edit', deletion);
    expect(summary(await publish('Revert the deletion'))).toEqual(['publish r-0007']);
  }, STEP_TIMEOUT_MS);

  it('history rewritten to drop the added review: it shows as withdrawn, every earlier checkpoint still extended', async () => {
    await changeReviews('2025-02', (r) => r.filter((x) => x.id !== 'r-0100'));
    await git('add', '-A', 'content');
    await git('commit', '--quiet', '-m', 'Drop r-0100');
    // The owner squashes the whole history into one commit, as if r-0100 had never been there.
    const tree = (await git('write-tree')).stdout.trim();
    const root = (await git('commit-tree', tree, '-m', 'Content')).stdout.trim();
    await git('reset', '--quiet', '--hard', root);
    expect((await git('log', '--oneline')).stdout.trim().split('\n')).toHaveLength(1);
    expect(summary(await publish('Rewritten history'))).toEqual(['withdraw r-0100 other']);
    expect(checkpoints).toHaveLength(8);
  }, STEP_TIMEOUT_MS);

  it('the /log/ page says it in plain words, and each review’s card says since when it is logged, with a check', async () => {
    const dist = await realpath(distDir);
    const page = decodeEntities((await readFile(path.join(dist, 'log', 'index.html'), 'utf8')).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '));
    const first = JSON.parse(checkpoints[0]!.split('\n')[1]!) as number;
    expect(page).toContain(`${first + 1} reviews have been published here. 2 reviews have since been withdrawn.`);
    expect(page).toContain('1 review: at the customer\'s request');
    expect(page).toContain('1 review: no reason given');
    expect(page).toMatch(/Entry Withdrawn on Review of Rating Why( \d+ \w+ \d+, \d{4} \w+ \d+, \d{4} \d of 5 [^0-9]+){3}/);
    expect(page).toContain('npm run verify -- https://reviews.example.com');
    const month = await readFile(path.join(dist, 'reviews', '2025-01', 'index.html'), 'utf8');
    const card = month.slice(month.indexOf('id="r-0003"'), month.indexOf('</article>', month.indexOf('id="r-0003"')));
    expect(card).toMatch(/In the <a href="\/log\/">public log<\/a> since \w+ \d+, \d{4} — <a href="\/log\/check\/\?review=r-0003">check it</);
  });

  it('npm run verify accepts a CDN copy of the build and names a review edited by hand in its /reviews.json', async () => {
    const copy = path.join(work, 'cdn');
    await cp(await realpath(distDir), copy, { recursive: true });
    const server = await startStaticServer(copy);
    const verify = (state: string) =>
      runScript(process.execPath, ['scripts/verify.ts', server.url, '--state', path.join(work, state)], { env: { PATH: process.env.PATH ?? '' } });
    try {
      const honest = await verify('state.json');
      expect(honest.stdout).toContain(`Log ${ORIGIN}: ${checkpoints.at(-1)!.split('\n')[1]} entries`);
      expect(honest.stdout).toMatch(/Withdrawals: 3\.\n(.*\n){3}/);
      expect(honest.stdout).toContain('reason: customer_request');
      expect(honest.code).toBe(0);

      const dataset = JSON.parse(await readFile(path.join(copy, 'reviews.json'), 'utf8')) as { reviews: Review[] };
      const edited = dataset.reviews.find((r) => r.id === 'r-0003')!;
      edited.text = edited.text.replace('a bit pricey', 'fairly priced');
      await writeFile(path.join(copy, 'reviews.json'), JSON.stringify(dataset));
      const caught = await verify('state.json');
      expect(caught.code).toBe(1);
      expect(caught.stderr).toContain("problem: review r-0003 does not match its latest entry");
      expect(caught.stderr).toContain("it changed behind the log's back");
    } finally {
      await server.close();
    }
  }, STEP_TIMEOUT_MS);
});
