/**
 * A fresh clone has no content/: `npm start` serves the demo of examples/demo, says so in one line and
 * in a banner on the pages, naming the command that starts your own. And a HOST that other machines
 * reach, without PUBLIC_URL, gets a warning at start, as does TRUST_PROXY=true (every client then chooses
 * its own address).
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSourceFingerprint } from '../../scripts/lib/source-fingerprint.ts';
import { DEMO_CONTENT_DIR } from '../../scripts/lib/entry-config.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('npm start without a content folder', () => {
  it('serves the demo, says so in one start-up line and a banner, and warns about PUBLIC_URL unset on a public HOST and TRUST_PROXY=true', async () => {
    // A working directory without content/ and no CONTENT_DIR: what a fresh clone is.
    const work = await mkdtemp(path.join(tmpdir(), 'demo-start-'));
    const env = { ...process.env, PORT: '0', HOST: '0.0.0.0', DIST_DIR: path.join(work, 'dist'), DATA_DIR: path.join(work, 'data'), CONTENT_DIR: undefined, PUBLIC_URL: undefined, TRUST_PROXY: 'true' };
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.ts')], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    try {
      const port = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk;
          const match = /"event":"listening","url":"http:\/\/[^"]*:(\d+)"/.exec(output);
          if (match) resolve(match[1]!);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const lines = output.split('\n');
      expect(lines).toContain('No content/ folder: serving the demo business of examples/demo/. To start your own: npm run init');
      expect(lines.filter((l) => l.startsWith('Warning: HOST=0.0.0.0 accepts connections from other machines, but PUBLIC_URL is not set'))).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith('Warning: TRUST_PROXY=true believes X-Forwarded-For from anyone: every client then chooses its own address'))).toHaveLength(1);

      const home = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(home).toContain('<p class="demo-banner">Demo: these are the example reviews of <code>examples/demo</code>. To show your own, run <code>npm run init</code>.</p>');
      expect(home).toContain('Riverbend Home Services');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 300_000);

  it('builds the same files anywhere else without the banner: a copy of the demo is another build', async () => {
    const copy = path.join(await mkdtemp(path.join(tmpdir(), 'demo-copy-')), 'content');
    await cp(DEMO_CONTENT_DIR, copy, { recursive: true });
    const publicUrl = 'https://reviews.example.com';
    expect(await computeSourceFingerprint({ contentDir: copy, publicUrl })).not.toEqual(await computeSourceFingerprint({ contentDir: DEMO_CONTENT_DIR, publicUrl }));
  });
});
