/** Runs `npm run import` as a user does (the script in a child process, CONTENT_DIR in the environment) and looks at the folder. */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScript, type ScriptRun } from '../helpers/run-script.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

export const FIXTURES = path.resolve('tests/fixtures/import');
export const fixture = (name: string) => path.join(FIXTURES, name);

export type Run = ScriptRun & { summary: string };

export async function runImport(contentDir: string, args: string[]): Promise<Run> {
  const run = await runScript(process.execPath, ['scripts/import/main.ts', ...args], { env: { ...process.env, CONTENT_DIR: contentDir } });
  return { ...run, summary: run.stdout.trimEnd().split('\n').at(-1) ?? '' };
}

/** A copy of the small test content (Brightline Heating & Air: Mike, Dana, Al; AC, furnace, water heater). */
export async function copySmallContent(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'import-')), 'content');
  await cp(SMALL_CONTENT, dir, { recursive: true });
  return dir;
}

export async function emptyFolder(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'import-empty-')), 'content');
}

/** Every file under the folder with its bytes' hash, inode and mtime: a rewrite with the same bytes still shows. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    const hash = createHash('sha256').update(await readFile(file)).digest('hex');
    out[path.relative(dir, file)] = `${hash} ${info.ino} ${info.mtimeMs}`;
  }
  return out;
}

export type StoredReview = Record<string, unknown> & { id: string; text: string };

/** Every review in reviews/*.json, by id, with the file that holds it. */
export async function readReviews(dir: string): Promise<Map<string, StoredReview & { file: string }>> {
  const byId = new Map<string, StoredReview & { file: string }>();
  for (const name of (await readdir(path.join(dir, 'reviews'))).filter((n) => n.endsWith('.json')).sort()) {
    for (const review of JSON.parse(await readFile(path.join(dir, 'reviews', name), 'utf8')) as StoredReview[]) byId.set(review.id, { ...review, file: name });
  }
  return byId;
}

export function findByAuthor(reviews: Map<string, StoredReview>, author: string): StoredReview {
  const found = [...reviews.values()].find((r) => r.author === author);
  if (!found) throw new Error(`no review by ${author}`);
  return found;
}
