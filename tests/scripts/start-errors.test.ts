/**
 * What `npm start` tells a person: the URL to open as the last start-up line, and one line naming
 * the variable to change when it cannot start. Runs scripts/start.ts in a child process, on a build
 * made beforehand for the same content and public URL, so nothing is rebuilt.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { findFreePort } from '../../tools/lib/free-port.ts';

let port = 0;
let env: Record<string, string> = {};

function start(extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['scripts/start.ts'], { env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

beforeAll(async () => {
  port = await findFreePort();
  const publicUrl = `http://localhost:${port}`;
  const { distDir } = await buildTestSite({ publicUrl });
  const work = await mkdtemp(path.join(tmpdir(), 'start-errors-'));
  env = { PORT: String(port), HOST: '127.0.0.1', CONTENT_DIR: SMALL_CONTENT, DIST_DIR: distDir, DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'info' };
});

describe('npm start', () => {
  it('ends its start-up output with one line giving the URL to open', async () => {
    const run = start();
    const ready = new Promise<string>((resolve, reject) => {
      run.child.stdout.on('data', () => {
        const lines = run.output().stdout.trimEnd().split('\n');
        if (lines.at(-1)!.startsWith('Reviews service ready')) resolve(run.output().stdout);
      });
      void run.exited.then((r) => reject(new Error(`exited with ${r.code}: ${r.stdout}${r.stderr}`)));
    });
    const stdout = await ready;
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`Reviews service ready: open http://localhost:${port}/ (Ctrl-C stops it)`);
    // The JSON logs come before it.
    expect(lines.slice(0, -1).some((line) => line.includes('"event":"listening"'))).toBe(true);
    const res = await fetch(`http://localhost:${port}/reviews.json`);
    expect(res.status).toBe(200);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  }, 60_000);

  it.each([
    ['the port is in use', {}, /^Cannot listen on 127\.0\.0\.1:\d+: the port is already in use by another program\. Stop that program, or set PORT to a free port\.$/],
    ['HOST is not an address of this machine', { HOST: '192.0.2.1', PUBLIC_URL: 'https://reviews.example.com' }, /^Cannot listen on 192\.0\.2\.1:\d+: this machine has no such address\. Set HOST to one/],
    ['the content folder is missing', { CONTENT_DIR: 'no-such-content' }, /^No content folder at .*no-such-content: set CONTENT_DIR to the folder that holds business\.json and reviews\/\.$/],
  ])('stops with one line naming the variable when %s', async (_name, extra, line) => {
    const squatter = createServer().listen(port, '127.0.0.1');
    await once(squatter, 'listening');
    try {
      const { code, stderr } = await start(extra).exited;
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr.trimEnd()).toMatch(line);
    } finally {
      squatter.close();
    }
  }, 60_000);
});
