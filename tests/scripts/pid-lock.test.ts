/**
 * The import and sync lock (issue 41 item 2, scripts/lib/pid-lock.ts): a live holder is named, a dead
 * one's lock is taken over and then names this process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockContentFolder } from '../../scripts/import/import-fs.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pid-lock-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('lockContentFolder', () => {
  it('names a live holder, and takes over the lock of a process that is gone', async () => {
    const dir = path.join(work, 'stale');
    const held = await lockContentFolder(dir);
    expect(held.ok).toBe(true);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      if (held.ok) await held.release();
      await writeFile(path.join(dir, '.import.lock'), String(sleeper.pid));
      expect(await lockContentFolder(dir)).toEqual({ ok: false, message: `another import (process ${sleeper.pid}) is writing ${dir}; wait for it to finish` });
    } finally {
      sleeper.kill();
    }
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(dir, '.import.lock'), String(dead));
    const taken = await lockContentFolder(dir);
    expect(taken.ok).toBe(true);
    expect(await readFile(path.join(dir, '.import.lock'), 'utf8')).toBe(String(process.pid));
  });
});

describe('takePidLock', () => {
  it('lets exactly one of many processes racing for one lock take it, each of the others naming that one', async () => {
    const file = path.join(work, 'race.lock');
    // Each says what it got on one line; the one holding the lock keeps it until it is stopped.
    const script = `import { takePidLock } from ${JSON.stringify(path.resolve('scripts/lib/pid-lock.ts'))};
const go = Number(process.argv[1]);
while (Date.now() < go) {}
const lock = await takePidLock(process.argv[2]);
console.log(JSON.stringify(lock.ok ? { ok: true, pid: process.pid } : lock));
if (lock.ok) setInterval(() => {}, 1000);`;
    // All make their attempt at the same moment, once each has loaded its modules.
    const go = String(Date.now() + 2_000);
    const children = Array.from({ length: 8 }, () => spawn(process.execPath, ['--input-type=module', '-e', script, go, file], { stdio: ['ignore', 'pipe', 'inherit'] }));
    try {
      const results = await Promise.all(
        children.map(
          (child) =>
            new Promise<{ ok: boolean; pid: number }>((resolve, reject) => {
              let out = '';
              child.stdout.on('data', (chunk: Buffer) => {
                out += chunk;
                if (out.includes('\n')) resolve(JSON.parse(out) as { ok: boolean; pid: number });
              });
              child.once('exit', (code) => reject(new Error(`exited with ${code} before answering: ${out}`)));
            }),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      for (const loser of results.filter((r) => !r.ok)) expect(loser.pid).toBe(winners[0]!.pid);
    } finally {
      for (const child of children) child.kill();
    }
  }, 30_000);
});
