/**
 * The records of running services (scripts/lib/running-service.ts): a service holds its record's kernel
 * lock while it lives, so a reader in another pid namespace (a one-off build container beside the
 * sidecars' on one volume) tells a live service from an ended one whatever pid the record names.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildsDirOf } from '../../core/publishing/build-folders-fs.ts';
import { findRunningServices } from '../../scripts/lib/running-service.ts';

let work: string;
let distDir: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'running-service-'));
  distDir = path.join(work, 'dist');
  await mkdir(buildsDirOf(distDir), { recursive: true });
});
afterAll(() => rm(work, { recursive: true, force: true }));

const records = async () => (await readdir(buildsDirOf(distDir))).filter((name) => name.startsWith('serving-')).sort();

/** A process that records itself as the service of `distDir`, collects its garbage, says so, and lives until it is killed. */
function serveInChild() {
  const script = `import { recordRunningService } from ${JSON.stringify(path.resolve('scripts/lib/running-service.ts'))};
await recordRunningService(process.argv[1], { publicUrl: 'https://reviews.example.com', url: 'http://127.0.0.1:4321' });
// A long-running service collects its garbage: the record's lock must outlive that.
for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((resolve) => setImmediate(resolve)); }
console.log('recorded');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script, distDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const recorded = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`exited with ${code} before recording`)));
  });
  return { child, recorded };
}

describe('the records of running services', () => {
  it('finds a live service, and drops its record once it is killed, though the record still names it', async () => {
    const { child, recorded } = serveInChild();
    try {
      await recorded;
      // The record and its lock, and no journal beside them: a killed service leaves nothing more behind.
      expect((await records()).map((name) => name.replace(/[0-9a-f]{12}/, 'X'))).toEqual(['serving-dist-X.json', 'serving-dist-X.json.held']);
      expect(findRunningServices(distDir)).toEqual([{ pid: child.pid, public_url: 'https://reviews.example.com', url: 'http://127.0.0.1:4321' }]);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
    }
    // SIGKILL: no exit handler ran, so the record is still there; the kernel let go of its lock.
    expect((await records()).length).toBeGreaterThan(0);
    expect(findRunningServices(distDir)).toEqual([]);
    expect(await records()).toEqual([]);
  });

  it("takes no record for a live service because the pid it names is alive: another container's, whose pid 1 is alive here too", async () => {
    const dir = buildsDirOf(distDir);
    await writeFile(path.join(dir, 'serving-dist-0123456789ab.json'), JSON.stringify({ pid: 1, public_url: 'https://other.example', url: 'http://10.0.0.2:4321' }));
    expect(findRunningServices(distDir)).toEqual([]);
    expect(await records()).toEqual([]);
  });

  it("judges an older version's record, named by its pid, by that pid", async () => {
    const dir = buildsDirOf(distDir);
    await writeFile(path.join(dir, `serving-dist-p${process.ppid}.json`), JSON.stringify({ pid: process.ppid, public_url: 'https://reviews.example.com', url: 'http://127.0.0.1:4321' }));
    expect(findRunningServices(distDir).map((s) => s.pid)).toEqual([process.ppid]);
    await rm(path.join(dir, `serving-dist-p${process.ppid}.json`));
  });
});
