/**
 * A signal sent to `npm` reaches the command it runs. npm runs a script through `sh -c` and passes a
 * SIGTERM on to that shell; a shell that waits for node then dies and leaves node running, still
 * holding the port and the hub's store (a process manager, `timeout npm start` or an editor's stop
 * button would leave the service up). Every script that runs node therefore `exec`s it, so npm's child
 * is node itself.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestSite } from '../helpers/site-build.ts';

const PUBLIC_URL = 'https://reviews.example.com';

describe('npm scripts', () => {
  it('exec node, so npm passes signals to the command itself', async () => {
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    const runningNode = Object.entries(scripts).filter(([, script]) => /\bnode\b/.test(script));
    expect(runningNode.length).toBeGreaterThan(10);
    expect(runningNode.filter(([, script]) => !script.startsWith('exec node ')).map(([name]) => name)).toEqual([]);
  });

  it('npm run serve stops cleanly on a SIGTERM sent to npm, and frees its port', async () => {
    const { distDir } = await buildTestSite({ publicUrl: PUBLIC_URL });
    const env = { ...process.env, PUBLIC_URL, DIST_DIR: distDir, DATA_DIR: path.join(path.dirname(distDir), 'data'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
    // A group of its own: whatever npm leaves running is killed after the test, so a failure leaks nothing.
    const npm = spawn('npm', ['run', '--silent', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const closed = new Promise<void>((resolve) => npm.once('close', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk;
          const match = /"event":"listening","url":"([^"]+)"/.exec(output);
          if (match) resolve(match[1]!);
        };
        npm.stdout.on('data', onData);
        npm.stderr.on('data', onData);
        npm.once('exit', (code) => reject(new Error(`npm run serve exited with ${code}: ${output}`)));
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      npm.kill('SIGTERM');
      // Its output closes once every process writing to it has ended: node too, not only npm.
      let timer: NodeJS.Timeout | undefined;
      const stillOpen = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`a process npm started still runs 15 s after the SIGTERM:\n${output}`)), 15_000);
      });
      await Promise.race([closed, stillOpen]).finally(() => clearTimeout(timer));
      expect(output).toContain('"event":"shutdown_started","signal":"SIGTERM"');
      expect(output).toContain('"event":"shutdown","signal":"SIGTERM","outcome":"clean"');
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The group has already ended.
      }
    }
  });
});
