/**
 * One version of the project for `npm run bench -- serve --against <ref>`: this checkout, or a git ref
 * checked out beside it (`.bench-against/<commit>`, its own `npm ci`), which builds a content folder and
 * serves it with its own Node, build script and sidecar. A served version writes its log to a file, as a
 * service under a supervisor would, so its access log costs what it costs in production.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, open, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.ts';

const run = promisify(execFile);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Tree = { label: string; dir: string; node: string };

export function currentTree(): Tree {
  return { label: 'today', dir: ROOT, node: process.execPath };
}

/**
 * A build of `contentDir` by `tree`, made once per version of the code that builds and of the content,
 * and kept in `.bench-content/builds/<name>-<key>` (a build takes minutes on a busy machine). The key
 * names the committed trees of the tree's core/, scripts/ and site/ and the `contentKey` given;
 * uncommitted changes there are not seen: delete the folder.
 */
export async function builtOnce(tree: Tree, contentDir: string, name: string, contentKey: string, publicUrl: string): Promise<string> {
  const [kept] = await builtInTurn(tree, contentDir, name, contentKey, publicUrl, []);
  return kept!;
}

/**
 * Builds `contentDir`, then, for each of `edits`, edits the content and builds again, as publishes do:
 * the same content folder, the same `dist`, one data folder (the review log's key) for all. Kept like
 * builtOnce, as `<name>-<key>/0`, `/1`…; returns the build folders in order.
 */
export async function builtInTurn(
  tree: Tree,
  contentDir: string,
  name: string,
  contentKey: string,
  publicUrl: string,
  edits: readonly ((contentDir: string) => Promise<void>)[],
): Promise<string[]> {
  const trees = (await run('git', ['rev-parse', 'HEAD:core', 'HEAD:scripts', 'HEAD:site'], { cwd: tree.dir })).stdout;
  const key = createHash('sha256').update(trees).update(contentKey).update(publicUrl).digest('hex').slice(0, 12);
  const kept = path.join(ROOT, '.bench-content', 'builds', `${name}-${key}`);
  const folders = Array.from({ length: edits.length + 1 }, (_, i) => (edits.length === 0 ? kept : path.join(kept, String(i))));
  if (!folders.every((folder) => existsSync(path.join(folder, '_manifest.json')))) {
    const work = await mkdtemp(path.join(tmpdir(), 'bench-build-'));
    try {
      const content = path.join(work, 'content');
      await cp(contentDir, content, { recursive: true });
      await rm(kept, { recursive: true, force: true });
      for (const [i, folder] of folders.entries()) {
        if (i > 0) await edits[i - 1]!(content);
        await buildWith(tree, content, path.join(work, 'dist'), publicUrl, path.join(work, 'data'));
        await mkdir(path.dirname(folder), { recursive: true });
        await cp(await realpath(path.join(work, 'dist')), folder, { recursive: true });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  return folders;
}

/** Checks `ref` out beside this checkout (once per commit) and installs its dependencies. */
export async function treeAt(ref: string): Promise<Tree> {
  const commit = (await run('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT })).stdout.trim();
  const dir = path.join(ROOT, '.bench-against', commit.slice(0, 12));
  if (!existsSync(path.join(dir, 'package.json'))) {
    await run('git', ['worktree', 'add', '--force', '--detach', dir, commit], { cwd: ROOT });
  }
  const node = path.join(dir, 'node_modules', '.bin', 'node');
  if (!existsSync(node)) {
    console.error(`  installing the dependencies of ${ref} (${commit.slice(0, 12)}) in ${path.relative(ROOT, dir)}`);
    // An older commit's lock file may be out of step with its package.json; `npm install` then settles it.
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 1 << 26 }).catch(() =>
      run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 1 << 26 }),
    );
  }
  return { label: ref, dir, node };
}

/** Builds `contentDir` into `outDir` with the tree's own build script. */
export async function buildWith(tree: Tree, contentDir: string, outDir: string, publicUrl: string, dataDir?: string): Promise<void> {
  // A data folder of its own unless given: the build keeps keys there (the review log's).
  const data = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'bench-build-data-')));
  try {
    await run(tree.node, [path.join(tree.dir, 'scripts/build.ts')], {
      cwd: tree.dir,
      env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: outDir, PUBLIC_URL: publicUrl, DATA_DIR: data },
      maxBuffer: 1 << 26,
    });
  } finally {
    if (dataDir === undefined) await rm(data, { recursive: true, force: true });
  }
}

export type Served = {
  url: string;
  child: ChildProcess;
  logFile: string;
  log(): Promise<string>;
  /** How many lines of this event the log holds so far, reading only what was written since the last call. */
  countEvent(event: string): Promise<number>;
  stop(): Promise<void>;
};

/** Starts the tree's sidecar on a free port, its stdout (the JSON log, access log included) into `logFile`. */
export async function serveWith(tree: Tree, env: Record<string, string>, logFile: string): Promise<Served> {
  const fd = openSync(logFile, 'w');
  // A tree from before scripts/serve.ts ran the service as `node sidecar/main.ts`.
  const entry = existsSync(path.join(tree.dir, 'scripts/serve.ts')) ? 'scripts/serve.ts' : 'sidecar/main.ts';
  // Node's flags as the tree's own `npm start` passes them (none before issue 32).
  const start = (JSON.parse(await readFile(path.join(tree.dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  // BENCH_NODE_FLAGS adds flags of one's own, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the served versions.
  const flags = [...start.split(' ').filter((word) => word.startsWith('--')), ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(tree.node, [...flags, path.join(tree.dir, entry)], {
    cwd: tree.dir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  const log = () => readFile(logFile, 'utf8');
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${tree.label}: the sidecar exited with ${code}`))));
  const url = await Promise.race([exited, waitFor(async () => /"event":"listening","url":"([^"]+)"/.exec(await log())?.[1])]);
  exited.catch(() => {});
  return {
    url,
    child,
    logFile,
    log,
    countEvent: eventCounter(logFile),
    stop: () => stopChild(child),
  };
}

/**
 * Counts a log's event lines from where the last call stopped: the access log of a served version grows
 * by megabytes, and reading it whole at every poll took the benchmark's own thread (which times the
 * requests) for tens of milliseconds at a time.
 */
function eventCounter(logFile: string): (event: string) => Promise<number> {
  const counts = new Map<string, number>();
  let position = 0;
  let partial = '';
  const decoder = new StringDecoder('utf8');
  return async (event) => {
    const handle = await open(logFile, 'r');
    try {
      for (;;) {
        const { bytesRead, buffer } = await handle.read({ buffer: Buffer.alloc(1 << 20), position });
        if (bytesRead === 0) break;
        position += bytesRead;
        const lines = (partial + decoder.write(buffer.subarray(0, bytesRead))).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          const name = /"event":"([^"]+)"/.exec(line)?.[1];
          if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
    } finally {
      await handle.close();
    }
    return counts.get(event) ?? 0;
  };
}

/** Polls `probe` every 20 ms until it gives a value (at most `timeoutMs`). */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
