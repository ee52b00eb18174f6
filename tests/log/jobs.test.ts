/**
 * Jobs logged before their reviews (issue 42, "Done when"): a small business with five jobs, three reviews
 * tied to them, published with the real build in two publishes: four jobs first (the log is made then), then
 * the three reviews with the fifth job. The log holds one `job` entry per job with only week, service and
 * area beside the commitment; tied reviews carry their job's entry and the right label (a job logged with
 * its review is not before it); /log/, /insights.json, MCP get_business and /about/reviews/ give the same
 * figures, equal to a count made here from the content; nothing of a customer reaches the build; a reader's
 * `npm run verify` checks every tie and fails on a tie the log does not hold; a job tied later is not
 * labelled as before.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContent } from '../../core/content/parse-content.ts';
import { parseConfig } from '../../core/config.ts';
import { buildSite } from '../../scripts/build.ts';
import { REVIEW_NAMESPACE } from '../../core/feeds/render-atom-feed.ts';
import { validateAtom } from '../helpers/atom-validate.ts';
import { decodeEntities } from '../helpers/html.ts';
import { readLogEntries } from '../helpers/log-entries.ts';
import { runScript } from '../helpers/run-script.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startStaticServer, type StaticServer } from '../helpers/static-server.ts';
import { connectClient } from '../mcp/mcp-fixture.ts';

const TIMEOUT_MS = 600_000;

/** The owner's records: what a job tool exports, customer and all. */
const JOBS = [
  { id: 'J-1', completed: '2025-01-02', service: 'water-heater', area: 'Springfield', customer: 'Ada Lovelace', phone: '555-0100', total: 480 },
  { id: 'J-2', completed: '2025-02-14', service: 'ac-repair', customer: 'Grace Hopper', total: 212 },
  { id: 'J-3', completed: '2025-01-09', service: 'furnace-repair', area: 'Chatham', customer: 'Edsger Dijkstra', total: 999 },
  { id: 'J-4', completed: '2025-02-13', service: 'ac-repair', area: 'Rochester', customer: 'Barbara Liskov', total: 150 },
  { id: 'J-5', completed: '2025-02-20', service: 'water-heater', customer: 'Donald Knuth', total: 1024 },
];
const TIES: Record<string, string> = { 'r-0001': 'J-1', 'r-0005': 'J-2', 'r-0006': 'J-4' };
const PRIVATE = ['Ada Lovelace', 'Grace Hopper', 'Barbara Liskov', 'Donald Knuth', '555-0100', 'J-1', 'J-4'];

let work: string;
let content: string;
let distDir: string;
let copy: StaticServer;
let first: { code: number | null; stdout: string };
/** /log/ after the first publish, when no review was tied to a job yet. */
let firstLogPage: string;
type Served = { id: string; url: string; rating: number; job?: { entry: number; week: string; service: string; logged_before_review: boolean } };
let served: Served[];

const verify = (url: string) => runScript(process.execPath, ['scripts/verify.ts', url, '--state', path.join(work, 'reader.json')], { env: { PATH: process.env.PATH ?? '' } });

async function copyToCdn() {
  const dir = path.join(work, 'cdn');
  await rm(dir, { recursive: true, force: true });
  await cp(await realpath(distDir), dir, { recursive: true });
}

async function tieReviews(ties: Record<string, string>) {
  for (const name of await readdir(path.join(content, 'reviews'))) {
    const file = path.join(content, 'reviews', name);
    const reviews = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
    for (const r of reviews) if (ties[r.id as string]) r.job = ties[r.id as string];
    await writeFile(file, JSON.stringify(reviews, null, 2));
  }
}

/** Leaves the reviews `ids` out of the content; the function returned puts them back. */
async function leaveOut(ids: readonly string[]): Promise<() => Promise<void>> {
  const originals = new Map<string, string>();
  for (const name of await readdir(path.join(content, 'reviews'))) {
    const file = path.join(content, 'reviews', name);
    const text = await readFile(file, 'utf8');
    originals.set(file, text);
    await writeFile(file, JSON.stringify((JSON.parse(text) as { id: string }[]).filter((r) => !ids.includes(r.id)), null, 2));
  }
  return async () => {
    for (const [file, text] of originals) await writeFile(file, text);
  };
}

const readServed = async () => (JSON.parse(await readFile(path.join(await realpath(distDir), 'reviews.json'), 'utf8')) as { reviews: Served[] }).reviews;
const pageText = async (rel: string) => decodeEntities(await readFile(path.join(await realpath(distDir), rel), 'utf8')).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/** Every file of the build as text. */
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !/\.(br|gz|jpg|webp|png|ico)$/.test(entry.name)) out.push(await readFile(path.join(entry.parentPath, entry.name), 'utf8'));
  }
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'jobs-'));
  content = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, content, { recursive: true });
  await mkdir(path.join(content, 'jobs'));
  // The first publish makes the log: every job but J-2, and none of the reviews tied to a job.
  const putBack = await leaveOut(Object.keys(TIES));
  await writeFile(path.join(content, 'jobs/2025.json'), JSON.stringify(JOBS.filter((j) => j.id !== 'J-2'), null, 2));
  await buildTestSite({ contentDir: content, outDir: distDir, own: true });
  firstLogPage = await pageText('log/index.html');
  // A later one brings the three reviews, tied, and J-2 with its review.
  await putBack();
  await writeFile(path.join(content, 'jobs/2025.json'), JSON.stringify(JOBS, null, 2));
  await tieReviews(TIES);
  await buildTestSite({ contentDir: content, outDir: distDir, own: true });
  served = await readServed();
  await copyToCdn();
  copy = await startStaticServer(path.join(work, 'cdn'));
  first = await verify(copy.url);
}, TIMEOUT_MS);

afterAll(async () => {
  await copy?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('jobs logged before their reviews', () => {
  it('logs one job entry per job with only week, service and area beside the commitment, each before its review', async () => {
    const entries = await readLogEntries(distDir);
    const jobs = entries.flatMap((e) => (e.action === 'job' ? [e] : []));
    // Each with only these members: the four of the first publish (one time, so in the order of their
    // locators), then J-2.
    const members = jobs.map((j) => [j.week, j.service, j.area ?? null, Object.keys(j).length]);
    expect(members.slice(0, 4).sort()).toEqual([
      ['2025-W01', 'water-heater', 'Springfield', 7],
      ['2025-W02', 'furnace-repair', 'Chatham', 7],
      ['2025-W07', 'ac-repair', 'Rochester', 7],
      ['2025-W08', 'water-heater', null, 6],
    ]);
    expect(members[4]).toEqual(['2025-W07', 'ac-repair', null, 6]);
    expect(new Set(jobs.flatMap((j) => Object.keys(j)))).toEqual(new Set(['action', 'time', 'week', 'service', 'area', 'locator', 'commitment']));
    // Each tied review's first entry comes after its job's.
    const at = (id: string) => entries.findIndex((e) => e.action === 'publish' && e.review_id === id);
    for (const [id] of Object.entries(TIES)) expect(served.find((r) => r.id === id)!.job!.entry).toBeLessThan(at(id));
  });

  it('gives each tied review its job entry and the right label', async () => {
    const byId = new Map(served.map((r) => [r.id, r]));
    expect(byId.get('r-0001')!.job).toMatchObject({ week: '2025-W01', service: 'water-heater', logged_before_review: true });
    // Logged in the same publish as its review: not before it.
    expect(byId.get('r-0005')!.job).toMatchObject({ week: '2025-W07', service: 'ac-repair', logged_before_review: false });
    expect(byId.get('r-0006')!.job).toMatchObject({ week: '2025-W07', service: 'ac-repair', logged_before_review: true });
    expect(served.filter((r) => r.job).map((r) => r.id).sort()).toEqual(Object.keys(TIES).sort());
    // The JSON Feed's structured fields carry the tie too.
    const feed = JSON.parse(await readFile(path.join(await realpath(distDir), 'api/feed.json'), 'utf8')) as { items: { id: string; _review: { job?: unknown } }[] };
    const item = feed.items.find((i) => i.id === served.find((r) => r.id === 'r-0006')!.url);
    expect(item?._review.job).toEqual(byId.get('r-0006')!.job);
    // And the Atom feed's, in the service's extension namespace, which keeps it valid Atom.
    const atom = await readFile(path.join(await realpath(distDir), 'feed.xml'), 'utf8');
    expect(atom).toContain(`xmlns:r="${REVIEW_NAMESPACE}"`);
    for (const id of ['r-0005', 'r-0006']) {
      const { entry, week, service, logged_before_review } = byId.get(id)!.job!;
      const xml = atom.split('<entry>').find((e) => e.includes(`<id>${byId.get(id)!.url}</id>`));
      expect(xml, id).toContain(`<r:job entry="${entry}" week="${week}" service="${service}" logged-before-review="${logged_before_review}"/>`);
    }
    expect(atom.split('<entry>').filter((e) => e.includes('<r:job ')).length).toBe(Object.keys(TIES).length);
    expect(await validateAtom(atom)).toEqual([]);
    const page = await pageText('index.html');
    // The week is the job's own, not when it was logged.
    expect(page).toContain('Job completed in week 7 of 2025, logged before this review');
    // r-0005's job and review entries carry the same time: the job is not after the review either.
    expect(page).toContain('Linked to a job completed in week 7 of 2025, not logged before the review');
    expect(page).toContain('From Yelp, not linked to a job');
    expect(page).toContain('Sent directly, not linked to a job');
  });

  it('shows the same figures on /log/, in /insights.json, MCP and /about/reviews/, equal to a count of the content', async () => {
    const tied = served.filter((r) => TIES[r.id]).length;
    const expected = { jobs: JOBS.length, reviewed: tied, share: tied / JOBS.length };
    const insights = JSON.parse(await readFile(path.join(await realpath(distDir), 'insights.json'), 'utf8')) as { jobs: { jobs: number; reviewed: number; share: number; tied: Record<string, number>; untied: Record<string, number> } };
    expect(insights.jobs).toMatchObject(expected);
    const ratings = (reviews: Served[]) => Object.fromEntries([1, 2, 3, 4, 5].map((n) => [String(n), reviews.filter((r) => r.rating === n).length]));
    expect(insights.jobs.tied).toEqual(ratings(served.filter((r) => TIES[r.id])));
    expect(insights.jobs.untied).toEqual(ratings(served.filter((r) => !TIES[r.id])));
    const sentence = `5 jobs have been logged; ${tied} of them (60%) have a published review tied to them.`;
    expect(await pageText('log/index.html')).toContain(sentence);
    expect(await pageText('about/reviews/index.html')).toContain(sentence);
    // Before any tie, the page says so rather than averaging no review.
    expect(firstLogPage).toContain('4 jobs have been logged; 0 of them (0%) have a published review tied to them.');
    expect(firstLogPage).toContain('No review is tied to a job yet.');
    expect(firstLogPage).not.toContain('average — stars');
    // As a browser shows it, tags dropped without a space: no words run together.
    const shown = decodeEntities(await readFile(path.join(await realpath(distDir), 'about/reviews/index.html'), 'utf8')).replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    for (const words of ['named on the log page. ', 'The average, 4.00 out of 5, is the plain mean of the 7 published ratings', 'give one or two stars. No published review']) expect(shown).toContain(words);
    const sidecar = await startTestSidecar({ distDir });
    const { client } = (await connectClient(new URL(`${sidecar.url}/mcp`))) as { client: Client };
    try {
      const result = await client.callTool({ name: 'get_business', arguments: {} });
      expect((result.structuredContent as { jobs: unknown }).jobs).toMatchObject(expected);
      // The search page's results, which the service renders, say the same of each review as the built pages.
      const search = decodeEntities(await (await fetch(`${sidecar.url}/search/?limit=50`, { headers: { Accept: 'text/html' } })).text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(search).toContain('Job completed in week 7 of 2025, logged before this review');
      expect(search).toContain('From Yelp, not linked to a job');
    } finally {
      await client.close();
      await sidecar.close();
    }
  }, TIMEOUT_MS);

  it('publishes nothing of a customer nor the owner\'s job ids', async () => {
    const files = await allFiles(await realpath(distDir));
    // Each as a whole token: the build is full of base64url (ETags, ids, keys), where "J-4" turns up by
    // chance inside a longer run of those characters (a run on 2026-11-30 found it in one file).
    const token = (secret: string) => new RegExp(`(?<![A-Za-z0-9_-])${secret}(?![A-Za-z0-9_-])`);
    for (const secret of PRIVATE) expect(files.filter((f) => token(secret).test(f)).length, secret).toBe(0);
  });

  it('is checked by the reader\'s verify, which reports the figures', () => {
    expect(first.stdout).toContain('Jobs: 5 logged, 3 with a published review (60.0%).');
    expect(first.stdout).toContain('OK: the service publishes what its log says.');
    expect(first.code).toBe(0);
  });

  it('fails verify when a served review claims a job its entry does not tie it to', async () => {
    const file = path.join(work, 'cdn/reviews.json');
    const original = await readFile(file, 'utf8');
    const dataset = JSON.parse(original) as { reviews: Served[] };
    const untied = dataset.reviews.find((r) => r.id === 'r-0003')!;
    untied.job = { ...dataset.reviews.find((r) => r.id === 'r-0001')!.job!, logged_before_review: true };
    await writeFile(file, JSON.stringify(dataset));
    try {
      const run = await verify(copy.url);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/problem: review r-0003 is served as the review of the job of entry \d+, but its latest entry ties it to no job/);
    } finally {
      await writeFile(file, original);
    }
  }, TIMEOUT_MS);

  it('labels a job tied after the review as such, and verify follows the new tie', async () => {
    await writeFile(path.join(content, 'jobs/2025.json'), JSON.stringify([...JOBS, { id: 'J-6', completed: '2025-02-27', service: 'furnace-repair', customer: 'Alan Kay', total: 77 }], null, 2));
    await tieReviews({ 'r-0008': 'J-6' });
    await buildTestSite({ contentDir: content, outDir: distDir, own: true });
    const late = (await readServed()).find((r) => r.id === 'r-0008')!;
    expect(late.job).toMatchObject({ week: '2025-W09', service: 'furnace-repair', logged_before_review: false });
    await copyToCdn();
    const run = await verify(copy.url);
    expect(run.stdout).toContain('Jobs: 6 logged, 4 with a published review (66.7%).');
    expect(run.stdout).toMatch(/entry \d+, \S+: review r-0008 of 2025-02-28, rating 4 \(unchanged\), words unchanged, reply unchanged; tied to a job/);
    expect(run.code).toBe(0);
  }, TIMEOUT_MS);
});

describe('a job in the content', () => {
  it('is the job of at most one review: a second stops the build naming both', () => {
    const business = { file: 'business.json', data: JSON.parse(JSON.stringify({ name: 'B', url: 'https://b.example', telephone: '1', address: { street: 's', locality: 'l', region: 'r', postal_code: 'p', country: 'c' }, services: [{ id: 'ac-repair', name: 'AC repair' }], technicians: [], service_areas: [] })) };
    const review = (id: string) => ({ id, rating: 5, date: '2025-01-05', text: 'Good.', author: 'A', verified: true, job: 'J-9' });
    const parsed = parseContent({ business, reviewFiles: [{ file: 'reviews/a.json', data: [review('r-1'), review('r-2')] }], jobFiles: [{ file: 'jobs/a.json', data: [{ id: 'J-9', completed: '2025-01-04', service: 'ac-repair' }] }] });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toEqual([{ file: 'reviews/a.json', review: 'r-2', field: 'job', message: 'job "J-9" is already the job of review r-1: one job, at most one review' }]);
  });

  it('named by two reviews, stops a real build with one line naming both, and leaves the build in service', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'jobs-twice-'));
    try {
      const contentDir = path.join(dir, 'content');
      await cp(SMALL_CONTENT, contentDir, { recursive: true });
      await mkdir(path.join(contentDir, 'jobs'));
      await writeFile(path.join(contentDir, 'jobs/2025.json'), JSON.stringify(JOBS));
      const file = path.join(contentDir, 'reviews/2025-02.json');
      const reviews = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
      for (const r of reviews) if (r.id === 'r-0005' || r.id === 'r-0006') r.job = 'J-4';
      await writeFile(file, JSON.stringify(reviews));
      const built = await buildSite({ contentDir, publicUrl: 'https://reviews.example.com', outDir: path.join(dir, 'dist'), dataDir: path.join(dir, 'data'), report: () => {} });
      expect(built.ok).toBe(false);
      if (!built.ok) expect(built.message).toContain('reviews/2025-02.json, review r-0006, field job: job "J-4" is already the job of review r-0005: one job, at most one review');
      // No build was made and no key was minted.
      expect((await readdir(dir)).filter((f) => f !== '.builds')).toEqual(['content']);
      // (The build's lock, scripts/lib/held-lock.ts, stays: the kernel holds it, not the file.)
      expect((await readdir(path.join(dir, '.builds')).catch(() => [])).filter((f) => !f.startsWith('lock-'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS);
});

describe('a build machine without DATA_DIR (a CI run)', () => {
  it('takes the job key from LOG_JOBS_KEY, saves no key file, and logs no job twice', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'jobs-ci-'));
    try {
      const contentDir = path.join(dir, 'content');
      await cp(SMALL_CONTENT, contentDir, { recursive: true });
      await mkdir(path.join(contentDir, 'jobs'));
      await writeFile(path.join(contentDir, 'jobs/2025.json'), JSON.stringify(JOBS));
      // One review tied, for the singular on /log/.
      const reviewsFile = path.join(contentDir, 'reviews/2025-01.json');
      await writeFile(reviewsFile, JSON.stringify((JSON.parse(await readFile(reviewsFile, 'utf8')) as { id: string }[]).map((r) => (r.id === 'r-0001' ? { ...r, job: 'J-1' } : r))));
      const jobsKey = `reviews-job-key/v1 ${Buffer.alloc(32, 7).toString('base64')}`;
      const options = { contentDir, publicUrl: 'https://reviews.example.com', outDir: path.join(dir, 'dist'), logJobsKey: jobsKey, report: () => {} };
      const first = await buildSite({ ...options, dataDir: path.join(dir, 'data-1') });
      expect(first.ok, first.ok ? '' : first.message).toBe(true);
      const logPage = decodeEntities(await readFile(path.join(await realpath(path.join(dir, 'dist')), 'log/index.html'), 'utf8')).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(logPage).toContain('5 jobs have been logged; 1 of them (20%) has a published review tied to it.');
      // A fresh DATA_DIR, as on the next CI run: both keys from the environment, so the jobs are known.
      const logSigningKey = await readFile(path.join(dir, 'data-1/log-keys/reviews.example.com%2Flog'), 'utf8');
      const second = await buildSite({ ...options, logSigningKey, dataDir: path.join(dir, 'data-2') });
      expect(second.ok, second.ok ? '' : second.message).toBe(true);
      if (first.ok && second.ok) expect([first.log.size, second.log.added]).toEqual([JOBS.length + 7, 0]);
      for (const data of ['data-1', 'data-2']) expect((await readdir(path.join(dir, data, 'log-keys')).catch(() => [])).filter((f) => f.endsWith('.jobs'))).toEqual([]);
      // Without the key, the next build refuses rather than log every job again under a new one.
      const third = await buildSite({ ...options, logSigningKey, logJobsKey: undefined, dataDir: path.join(dir, 'data-3') });
      expect(third.ok).toBe(false);
      if (!third.ok) expect(third.message).toMatch(/holds 5 jobs, but this machine has no job key .*or set LOG_JOBS_KEY/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS);

  it('says what a malformed LOG_JOBS_KEY should be', () => {
    const parsed = parseConfig({ LOG_JOBS_KEY: 'not a key' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toContain("LOG_JOBS_KEY: must be the job key file's one line, reviews-job-key/v1 <32 bytes in base64>");
  });
});
