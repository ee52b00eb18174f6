/**
 * What `updated` and the change log add to a build (issue 23 item 5): 10,000 reviews in monthly files
 * with 1,000 commits of history (900 imports of a few reviews each, 100 edits, replies and hides of
 * older ones), written with `git fast-import`. Measured: the build's history step alone (read the git
 * history, derive each review's times, compact and render the change log), first with no cache, then
 * for a build whose content changed in one review since the last one (target: under 2 s), with the
 * history cache (scripts/lib/content-history-cache.ts) and without it.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deriveReviewTimes } from '../../core/content/review-history.ts';
import { compactChangeLog, renderChangeLog } from '../../core/dataset/change-log.ts';
import { readContentHistory } from '../../scripts/lib/content-history.ts';
import { createRandom } from '../fixtures/search/random.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';
import { compareText } from '../../core/text/text-rules.ts';

const run_ = promisify(execFile);
const REVIEWS = 10_000;
const IMPORTS = 900;
const EDITS = 100;

type Review = { id: string; date: string; text: string; verified: boolean; response?: { text: string; date: string } };

/** The history step of scripts/build.ts preparePublication, alone. */
async function deriveHistory(contentDir: string, current: readonly Review[], cacheDir: string): Promise<number> {
  const started = performance.now();
  const history = await readContentHistory(contentDir, current, { cacheDir });
  if (history === undefined) throw new Error('no history: the bench content is not in git');
  const times = deriveReviewTimes(history);
  renderChangeLog(compactChangeLog(times.changes, history.map((v) => v.key)));
  return (performance.now() - started) / 1000;
}

/** One fast-import commit writing `files` (path → text) at `time` (seconds). */
function commitOf(mark: number, time: number, message: string, files: ReadonlyMap<string, string>): string {
  const lines = [`commit refs/heads/main`, `mark :${mark}`, `committer Bench <bench@example.com> ${time} +0000`, `data ${Buffer.byteLength(message)}`, message];
  if (mark > 1) lines.push(`from :${mark - 1}`);
  for (const [file, text] of files) lines.push(`M 100644 inline ${file}`, `data ${Buffer.byteLength(text)}`, text);
  return `${lines.join('\n')}\n\n`;
}

async function createHistoryRepo(): Promise<{ root: string; contentDir: string; current: () => Review[]; git: (args: string[], time?: number) => Promise<string> }> {
  const source = await ensureBenchContent(REVIEWS);
  const root = await mkdtemp(path.join(tmpdir(), 'bench-changes-'));
  const contentDir = path.join(root, 'content');
  await cp(path.join(source, 'business.json'), path.join(contentDir, 'business.json'));
  const months = new Map<string, Review[]>();
  for (const file of (await readdir(path.join(source, 'reviews'))).sort()) {
    for (const review of JSON.parse(await readFile(path.join(source, 'reviews', file), 'utf8')) as Review[]) {
      const month = `${review.date.slice(0, 7)}.json`;
      months.set(month, [...(months.get(month) ?? []), review]);
    }
  }
  const all = [...months.values()].flat().sort((a, b) => compareText(a.date, b.date));
  const written = new Map<string, Review[]>();
  const render = (reviews: Review[]) => `${JSON.stringify(reviews, null, 2)}\n`;
  const random = createRandom(23);
  let stream = '';
  let time = Date.parse('2023-01-01T00:00:00Z') / 1000;
  let mark = 0;
  const commit = (message: string, touched: Set<string>) => {
    mark++;
    time += 3600 * random.int(1, 30);
    stream += commitOf(mark, time, message, new Map([...touched].map((m) => [`content/reviews/${m}`, render(written.get(m)!)])));
  };
  mark++;
  stream += commitOf(mark, time, 'business', new Map([['content/business.json', await readFile(path.join(source, 'business.json'), 'utf8')]]));
  // Imports in date order, a few reviews each, with the edits spread among them.
  const editEvery = Math.floor(IMPORTS / EDITS);
  for (let i = 0; i < IMPORTS; i++) {
    const touched = new Set<string>();
    for (const review of all.slice(Math.round((i * all.length) / IMPORTS), Math.round(((i + 1) * all.length) / IMPORTS))) {
      const month = `${review.date.slice(0, 7)}.json`;
      written.set(month, [...(written.get(month) ?? []), review]);
      touched.add(month);
    }
    if (touched.size > 0) commit(`import ${i}`, touched);
    if (i % editEvery === editEvery - 1) {
      const [month, reviews] = random.pick([...written.entries()]);
      const review = random.pick(reviews);
      const kind = random.pick(['edit', 'reply', 'hide']);
      if (kind === 'edit') review.text = `${review.text} (edited)`;
      if (kind === 'reply') review.response = { text: 'Thank you for the review.', date: review.date };
      if (kind === 'hide') review.verified = false;
      commit(`${kind} ${review.id}`, new Set([month]));
    }
  }
  const git = async (args: string[], at?: number) => {
    const date = at === undefined ? {} : { GIT_COMMITTER_DATE: `${at} +0000`, GIT_AUTHOR_DATE: `${at} +0000` };
    const env = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com', ...date };
    return (await run_('git', args, { cwd: root, env, maxBuffer: 1 << 26 })).stdout;
  };
  await git(['init', '-q', '-b', 'main']);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], { cwd: root, stdio: ['pipe', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`))));
    child.stdin.end(stream);
  });
  await git(['checkout', '-q', '-f', 'main']);
  return { root, contentDir, current: () => [...written.values()].flat(), git: (args, at) => git(args, at ?? time + 3600) };
}

export async function run(): Promise<BenchRow[]> {
  const repo = await createHistoryRepo();
  const commits = Number((await repo.git(['rev-list', '--count', 'HEAD'])).trim());
  const cacheDir = path.join(repo.root, 'cache');
  const cold = await deriveHistory(repo.contentDir, repo.current(), cacheDir);
  // One review changed and committed, then built again.
  const file = path.join(repo.contentDir, 'reviews', (await readdir(path.join(repo.contentDir, 'reviews'))).sort().at(-1)!);
  const reviews = JSON.parse(await readFile(file, 'utf8')) as Review[];
  reviews[0]!.text = `${reviews[0]!.text} Edited once more.`;
  await writeFile(file, `${JSON.stringify(reviews, null, 2)}\n`);
  await repo.git(['commit', '-q', '-am', 'one edit']);
  const current = repo.current().map((r) => (r.id === reviews[0]!.id ? reviews[0]! : r));
  const incremental = await deriveHistory(repo.contentDir, current, cacheDir);
  const uncached = await deriveHistory(repo.contentDir, current, path.join(repo.root, 'no-cache'));
  await rm(repo.root, { recursive: true, force: true });
  const label = `updated + change log, ${REVIEWS / 1000}k reviews, ${commits} commits`;
  return [
    { name: `${label}: first build (no cache)`, value: cold, unit: 's' },
    { name: `${label}: build after a one-review commit`, value: incremental, unit: 's', target: '< 2 s', ok: incremental < 2 },
    { name: `${label}: the same build without the history cache`, value: uncached, unit: 's' },
  ];
}

if (import.meta.main) console.table(await run());
