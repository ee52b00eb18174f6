/**
 * A signal sent to `npm` reaches the command it runs. npm runs a script through `sh -c` and passes a
 * SIGTERM on to that shell; a shell that waits for node then dies and leaves node running, still
 * holding the port and the hub's store (a process manager, `timeout npm start` or an editor's stop
 * button would leave the service up). Every script that runs node therefore `exec`s it, so npm's child
 * is node itself. A terminal's Ctrl-C then reaches the service twice (from the terminal, and passed on by
 * npm): still one graceful stop (sidecar/main.ts).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { whenListening } from '../helpers/service-process.ts';
import { buildTestSite } from '../helpers/site-build.ts';

const PUBLIC_URL = 'https://reviews.example.com';

/**
 * `npm run serve` over a copy of the small site, in a process group of its own (as a terminal runs a
 * command): `stop` sends the signal, to npm alone or to the group, and resolves with everything printed
 * once no process writes to the output any more, node included. Whatever is left is killed afterwards.
 */
async function serveThroughNpm() {
  const { distDir } = await buildTestSite({ publicUrl: PUBLIC_URL });
  const env = { ...process.env, PUBLIC_URL, DIST_DIR: distDir, DATA_DIR: path.join(path.dirname(distDir), 'data'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
  const npm = spawn('npm', ['run', '--silent', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const closed = new Promise<void>((resolve) => npm.once('close', () => resolve()));
  const { listening, output } = whenListening(npm);
  const url = await listening;
  return {
    url,
    async stop(signal: NodeJS.Signals, to: 'npm' | 'group') {
      if (to === 'npm') npm.kill(signal);
      else process.kill(-npm.pid!, signal);
      let timer: NodeJS.Timeout | undefined;
      const stillOpen = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`a process npm started still runs 15 s after the ${signal}:\n${output()}`)), 15_000);
      });
      await Promise.race([closed, stillOpen]).finally(() => clearTimeout(timer));
      return output();
    },
    cleanUp() {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The group has already ended.
      }
    },
  };
}

describe('npm scripts', () => {
  it('exec node, so npm passes signals to the command itself', async () => {
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    const runningNode = Object.entries(scripts).filter(([, script]) => /\bnode\b/.test(script));
    expect(runningNode.length).toBeGreaterThan(10);
    expect(runningNode.filter(([, script]) => !script.startsWith('exec node ')).map(([name]) => name)).toEqual([]);
  });

  it('npm run serve stops cleanly on a SIGTERM sent to npm, and frees its port', async () => {
    const service = await serveThroughNpm();
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      const output = await service.stop('SIGTERM', 'npm');
      expect(output).toContain('"event":"shutdown_started","signal":"SIGTERM"');
      expect(output).toContain('"event":"shutdown","signal":"SIGTERM","outcome":"clean"');
      await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    } finally {
      service.cleanUp();
    }
  });

  it("stops cleanly on a terminal's Ctrl-C (SIGINT to the whole group), which reaches it twice", async () => {
    const service = await serveThroughNpm();
    try {
      const output = await service.stop('SIGINT', 'group');
      expect(output).toContain('"event":"shutdown","signal":"SIGINT","outcome":"clean"');
      expect(output).not.toContain('"outcome":"interrupted"');
    } finally {
      service.cleanUp();
    }
  });
});
