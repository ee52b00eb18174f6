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
