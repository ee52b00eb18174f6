/**
 * The build's lock (scripts/lib/held-lock.ts, issue 41 item 4): held by a live process, it is refused
 * with that process named; once its holder is killed it is free at once, whatever pid its file names,
 * even this very process's own (a container's build killed on a volume, then the next container's).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeHeldLock } from '../../scripts/lib/held-lock.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'held-lock-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A process that takes the lock, says so on one line, and holds it until it is killed. */
function holdInChild(file: string) {
  const script = `import { takeHeldLock } from ${JSON.stringify(path.resolve('scripts/lib/held-lock.ts'))};
const lock = await takeHeldLock(process.argv[1]);
console.log(lock.ok ? 'held' : 'refused');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const answer = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
  });
  return { child, answer };
}

describe('takeHeldLock', () => {
  it('refuses while a live process holds it, naming that process, and is free once that process is killed', async () => {
    const file = path.join(work, 'lock-dist');
    const { child, answer } = holdInChild(file);
    try {
      expect(await answer).toBe('held');
      expect(await takeHeldLock(file)).toEqual({ ok: false, pid: child.pid });
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
    }
    // The killed holder's file still names it; the kernel has let go of its lock all the same.
    expect(await readFile(file, 'utf8')).toBe(String(child.pid));
    const taken = await takeHeldLock(file);
    expect(taken.ok).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(String(process.pid));
    if (taken.ok) await taken.release();
  });

  it('is taken when its file names a live process that holds nothing: this one, as a killed container build left it', async () => {
    const file = path.join(work, 'lock-stale');
    await writeFile(file, String(process.pid));
    const taken = await takeHeldLock(file);
    expect(taken.ok).toBe(true);
    if (taken.ok) await taken.release();
    await expect(readFile(file, 'utf8')).rejects.toThrow();
  });
});
