/**
 * The build's lock (scripts/lib/held-lock.ts, issue 41 item 4): held by a live process, it is refused
 * with that process named; once its holder is killed it is free at once, whatever pid its file names,
 * even this very process's own (a container's build killed on a volume, then the next container's). Of many
 * processes racing for it, exactly one takes it.
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

describe('takeHeldLock, raced', () => {
  it('lets exactly one of many processes racing for one lock take it, each of the others naming that one', async () => {
    const file = path.join(work, 'race.lock');
    // Each says what it got on one line; the one holding the lock keeps it until it is stopped.
    const script = `import { takeHeldLock } from ${JSON.stringify(path.resolve('scripts/lib/held-lock.ts'))};
const go = Number(process.argv[1]);
while (Date.now() < go) {}
const lock = await takeHeldLock(process.argv[2]);
console.log(JSON.stringify(lock.ok ? { ok: true, pid: process.pid } : lock));
if (lock.ok) setInterval(() => {}, 1000);`;
    // All make their attempt at the same moment, once each has loaded its modules.
    const go = String(Date.now() + 2_000);
    const children = Array.from({ length: 8 }, () => spawn(process.execPath, ['--input-type=module', '-e', script, go, file], { stdio: ['ignore', 'pipe', 'inherit'] }));
    try {
      const results = await Promise.all(
        children.map(
          (child) =>
            new Promise<{ ok: boolean; pid?: number }>((resolve, reject) => {
              let out = '';
              child.stdout.on('data', (chunk: Buffer) => {
                out += chunk;
                if (out.includes('\n')) resolve(JSON.parse(out) as { ok: boolean; pid?: number });
              });
              child.once('exit', (code) => reject(new Error(`exited with ${code} before answering: ${out}`)));
            }),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      // A loser that came between the winner's lock and its writing its pid names nobody; the others name it.
      for (const loser of results.filter((r) => !r.ok)) expect([winners[0]!.pid, undefined]).toContain(loser.pid);
    } finally {
      for (const child of children) child.kill();
    }
  }, 30_000);
});

describe('takeHeldLock, tidy', () => {
  it('never lets two processes hold it at once, though each release removes its files', async () => {
    const file = path.join(work, 'tidy.lock');
    const log = path.join(work, 'tidy.log');
    // Each process takes the lock 25 times, writing a line as it enters and as it leaves.
    const script = `import { appendFileSync } from 'node:fs';
import { takeHeldLock } from ${JSON.stringify(path.resolve('scripts/lib/held-lock.ts'))};
const [file, log] = process.argv.slice(1);
for (let taken = 0; taken < 25; ) {
  const lock = await takeHeldLock(file, { tidy: true });
  if (!lock.ok) continue;
  appendFileSync(log, 'in ' + process.pid + '\\n');
  const until = Date.now() + 2;
  while (Date.now() < until) {}
  appendFileSync(log, 'out ' + process.pid + '\\n');
  await lock.release();
  taken++;
}`;
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ['--input-type=module', '-e', script, file, log], { stdio: ['ignore', 'inherit', 'inherit'] }));
    const codes = await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    expect(codes).toEqual([0, 0, 0, 0]);
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(4 * 25 * 2);
    // Every entry is followed by the same process's exit, before anyone else enters.
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]!.startsWith('in ')).toBe(true);
      expect(lines[i + 1]).toBe(lines[i]!.replace('in ', 'out '));
    }
    await expect(readFile(`${file}.held`)).rejects.toThrow();
    await expect(readFile(file)).rejects.toThrow();
  }, 60_000);
});
