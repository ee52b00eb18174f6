/**
 * The history of the content folder's reviews, read from git, as the versions core/content/review-history.ts
 * replays: one per commit that touched `reviews/` (first parents only, so a merge counts as one change
 * at its own time, and the order is the branch's), then the working tree when it differs, at the time
 * of HEAD. Each commit's changed files are read with one `git cat-file --batch`.
 *
 * Outside git (or with git missing), there is no history: undefined, and the build dates each review by
 * its own date or its owner reply's (core/content/review-history.ts `resolveUpdated`).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { diffFingerprints, fingerprintPublished, type ContentVersion } from '../../core/content/review-history.ts';
import { historyCacheFile, readHistoryCache, writeHistoryCache, type HistoryState } from './content-history-cache.ts';
import { compareText } from '../../core/text/text-rules.ts';

const run = promisify(execFile);

type Commit = { hash: string; time: string; files: string[] };

/**
 * The versions of `contentDir`'s reviews, ending with `current` (the reviews the build loaded), or undefined outside git.
 * With `cacheDir`, the replayed commits are kept there (content-history-cache.ts), and a later build reads only
 * the commits made since, as long as the last one it knows is still on the branch's first-parent line.
 */
export async function readContentHistory(
  contentDir: string,
  current: readonly { id: string; verified: boolean }[],
  options: { cacheDir?: string } = {},
): Promise<ContentVersion[] | undefined> {
  const dir = await realpath(contentDir);
  const top = await git(dir, ['rev-parse', '--show-toplevel']).catch(() => undefined);
  if (top === undefined) return undefined;
  const head = await git(dir, ['log', '-1', '--format=%cI']).catch(() => '');
  if (head === '') return undefined; // a repository without commits
  const reviewsPath = path.relative(top, path.join(dir, 'reviews')).split(path.sep).join('/');
  const cacheFile = options.cacheDir === undefined ? undefined : historyCacheFile(options.cacheDir, top, reviewsPath);
  const cached = cacheFile === undefined ? undefined : await readHistoryCache(cacheFile);
  const known = cached !== undefined && (await isOnFirstParentLine(top, cached.head)) ? cached : undefined;
  const range = known === undefined ? [] : [`${known.head}..HEAD`];
  const log = await git(top, ['log', '--first-parent', '-m', '--no-renames', '--reverse', '--format=%x01%H %cI', '--name-only', ...range, '--', reviewsPath]);
  const commits = parseLog(log).map((c) => ({ ...c, files: c.files.filter((f) => f.endsWith('.json') && path.posix.dirname(f) === reviewsPath) }));

  const state: HistoryState = known ?? { head: '', versions: [], byFile: new Map(), published: new Map() };
  const { versions, byFile, published } = state;
  const blobs = await readBlobs(top, commits.flatMap((c) => c.files.map((f) => `${c.hash}:${f}`)));
  for (const commit of commits) {
    const affected = new Set<string>();
    for (const file of commit.files) for (const id of byFile.get(file)?.keys() ?? []) affected.add(id);
    for (const file of commit.files) {
      const blob = blobs.get(`${commit.hash}:${file}`);
      if (blob === undefined) {
        byFile.delete(file); // deleted in this commit
        continue;
      }
      const reviews = parseReviews(blob);
      if (reviews === undefined) continue; // not valid JSON then: never published, keep the previous state
      const fingerprints = fingerprintPublished(reviews);
      byFile.set(file, fingerprints);
      for (const id of fingerprints.keys()) affected.add(id);
    }
    // A review moved from one file to another in the same commit is unchanged.
    const delta = new Map<string, string | null>();
    for (const id of affected) {
      let fingerprint: string | null = null;
      for (const fingerprints of byFile.values()) {
        fingerprint = fingerprints.get(id) ?? null;
        if (fingerprint !== null) break;
      }
      if (published.get(id) === (fingerprint ?? undefined)) continue;
      delta.set(id, fingerprint);
      if (fingerprint === null) published.delete(id);
      else published.set(id, fingerprint);
    }
    versions.push({ time: commit.time, key: commit.hash, delta });
    state.head = commit.hash;
  }
  // The cache only saves time: a folder that cannot be written (a read-only install) costs the next build a full replay.
  if (cacheFile !== undefined && commits.length > 0) await writeHistoryCache(cacheFile, state).catch(() => {});
  const worktree = diffFingerprints(published, fingerprintPublished(current));
  return [...versions, { time: head, key: keyOfWorktree(worktree), delta: worktree }];
}

/** Whether `commit` is on HEAD's first-parent line, so the commits after it are `commit..HEAD --first-parent`. */
async function isOnFirstParentLine(top: string, commit: string): Promise<boolean> {
  const line = await git(top, ['rev-list', '--first-parent', 'HEAD']).catch(() => '');
  return line.split('\n').includes(commit);
}

/** The uncommitted changes' own key: once committed they belong to a commit, and tokens issued for them expire. */
function keyOfWorktree(delta: ReadonlyMap<string, string | null>): string {
  const hash = createHash('sha256');
  for (const [id, fingerprint] of [...delta].sort(([a], [b]) => compareText(a, b))) hash.update(`${id}\0${fingerprint ?? ''}\n`);
  return `w${hash.digest('hex')}`;
}

function parseLog(log: string): Commit[] {
  return log
    .split('\x01')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [header = '', ...files] = block.split('\n');
      const [hash = '', time = ''] = header.split(' ');
      return { hash, time, files: files.filter((f) => f !== '') };
    });
}

function parseReviews(text: string): { id: string; verified: boolean }[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    return value.filter((r): r is { id: string; verified: boolean } => r !== null && typeof r === 'object' && typeof r.id === 'string' && r.verified === true);
  } catch {
    return undefined;
  }
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout.trim();
}

/** `<commit>:<path>` → the file's text, for every object that exists (a deleted file is left out). */
function readBlobs(cwd: string, names: readonly string[]): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited ${code}`));
      const out = Buffer.concat(chunks);
      const blobs = new Map<string, string>();
      let at = 0;
      for (const name of names) {
        const end = out.indexOf(0x0a, at);
        const header = out.subarray(at, end).toString();
        at = end + 1;
        if (header.endsWith(' missing')) continue;
        const size = Number(header.split(' ')[2]);
        blobs.set(name, out.subarray(at, at + size).toString('utf8'));
        at += size + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(names.map((n) => `${n}\n`).join(''));
  });
}
