/**
 * A build at DIST_DIR that cannot be served when the service starts (none at all, an incomplete one, one
 * whose files are gone or were made by other code) stops the real process with one line that says what is
 * wrong and what to run, and exit 1: no stack trace (sidecar/builds/build-store.ts BuildUnloadableError).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'unloadable-build-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Runs `npm run serve`'s file with DIST_DIR at `distDir`; resolves with its exit code and what it printed. */
function serve(distDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, ENV_FILE: 'none', PORT: '0', HOST: '127.0.0.1', DIST_DIR: distDir, DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

function expectOneLine(result: { code: number | null; stderr: string }, distDir: string, saying: RegExp) {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(path.resolve(distDir));
  expect(lines[0]).toMatch(saying);
  expect(lines[0]).toContain('npm run build');
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('a build the service cannot serve at start (the real process)', { timeout: 30_000 }, () => {
  it('none at DIST_DIR: one line naming the folder and npm run build, exit 1', async () => {
    const distDir = path.join(work, 'missing', 'dist');
    expectOneLine(await serve(distDir), distDir, /^No build at /);
  });

  it('a folder without a readable manifest: one line saying it is not a complete build, exit 1', async () => {
    const distDir = path.join(work, 'incomplete', 'dist');
    await mkdir(distDir, { recursive: true });
    await writeFile(path.join(distDir, '_manifest.json'), '{"written by": "another version"}\n');
    expectOneLine(await serve(distDir), distDir, /cannot be served: .*not a complete build/);
  });

  it('a manifest that lists a file that is gone: one line naming the file, exit 1', async () => {
    const distDir = path.join(work, 'stale', 'dist');
    await mkdir(distDir, { recursive: true });
    const entry = { file: 'reviews.json', type: 'application/json', etag: '"x"', size: 2, last_modified: '2026-01-01T00:00:00Z', encodings: {} };
    await writeFile(path.join(distDir, '_manifest.json'), JSON.stringify({ build_id: 'b1', files: { '/reviews.json': entry } }));
    expectOneLine(await serve(distDir), distDir, /cannot be served: .*reviews\.json/);
  });
});
