/**
 * The import and sync lock (scripts/import/import-fs.ts `lockContentFolder`, through scripts/lib/held-lock.ts):
 * a live holder is named, and a lock nobody holds is taken, whatever pid its file still names: even this
 * very process's own, as an import killed as pid 1 of its container leaves it for the next container's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockContentFolder } from '../../scripts/import/import-fs.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'content-lock-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('lockContentFolder', () => {
  it('names a live holder, and is free once that holder is killed', async () => {
    const dir = path.join(work, 'held');
    const script = `import { lockContentFolder } from ${JSON.stringify(path.resolve('scripts/import/import-fs.ts'))};
const lock = await lockContentFolder(process.argv[1]);
console.log(lock.ok ? 'held' : lock.message);
setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
      });
      expect(answer).toBe('held');
      expect(await lockContentFolder(dir)).toEqual({ ok: false, message: `another import (process ${child.pid}) is writing ${dir}; wait for it to finish` });
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
    }
    const taken = await lockContentFolder(dir);
    expect(taken.ok).toBe(true);
    expect(await readFile(path.join(dir, '.import.lock'), 'utf8')).toBe(String(process.pid));
    if (taken.ok) await taken.release();
  });

  it('is taken when its file names a live process that holds nothing: this one, as a killed container import left it', async () => {
    const dir = path.join(work, 'stale');
    const first = await lockContentFolder(dir);
    if (first.ok) await first.release();
    await writeFile(path.join(dir, '.import.lock'), String(process.pid));
    const taken = await lockContentFolder(dir);
    expect(taken.ok).toBe(true);
    if (taken.ok) await taken.release();
    // The owner's folder keeps no lock file once the import is done.
    expect((await readdir(dir)).filter((name) => name.startsWith('.import.lock'))).toEqual([]);
  });
});
