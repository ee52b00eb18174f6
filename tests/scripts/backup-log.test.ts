/**
 * A lost disk does not end the log (issue 41 item 5): `npm run backup` keeps the log's key (mode 0600,
 * with a warning) and the last published log; after DATA_DIR, DIST_DIR and `.builds/` are wiped,
 * `npm run restore` and one build with a change extend the same log under the same key, and a reader's
 * saved `verify` state still passes, and the job key comes back with it (issue 42): the receipts stay the
 * same and no job is logged twice. The address is public and unreachable, so the first build needs
 * `--new-log`, and the build after the restore could not go on without both the key and the last log.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/build.ts';
import { runScript } from '../helpers/run-script.ts';
import { startServiceProcess, stopServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const PUBLIC = 'https://reviews.acme-plumbing.invalid.net';
let work: string;
let contentDir: string;
let distDir: string;
let dataDir: string;
let stateFile: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'backup-log-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  dataDir = path.join(work, 'data');
  stateFile = path.join(work, 'reader-state.json');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await mkdir(path.join(contentDir, 'jobs'));
  await writeFile(path.join(contentDir, 'jobs/2025.json'), JSON.stringify([{ id: '1042', completed: '2025-01-02', service: 'water-heater', customer: 'Ada L.' }]));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const build = (newLog = false) => buildSite({ contentDir, publicUrl: PUBLIC, outDir: distDir, dataDir, newLog, report: () => {} });
const script = (name: string, args: string[]) => {
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  return runScript(process.execPath, [`scripts/${name}.ts`, ...args], { env: { ...inherited, ENV_FILE: 'none', PUBLIC_URL: PUBLIC, DIST_DIR: distDir, DATA_DIR: dataDir, CONTENT_DIR: contentDir } });
};

/** The service over DIST_DIR, and a reader's `npm run verify` against it with the saved state. */
async function serveAndVerify(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const service = await startServiceProcess({ PUBLIC_URL: PUBLIC, DIST_DIR: distDir, DATA_DIR: dataDir, CONTENT_DIR: contentDir });
  try {
    return await script('verify', [service.url, '--state', stateFile]);
  } finally {
    await stopServiceProcess(service);
  }
}

describe('backup and restore of the review log', () => {
  it('refuses a first build for an unreachable public address without --new-log, naming the ways on', async () => {
    const refused = await build();
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/cannot tell whether a log was published there.*npm run restore.*--new-log/);
    expect(await readdir(dataDir).catch(() => [])).toEqual([]);
  }, 300_000);

  it('keeps the key and the last log, so a wiped machine continues the same log', async () => {
    const first = await build(true);
    expect(first.ok).toBe(true);
    const [keyName, jobKeyName] = (await readdir(path.join(dataDir, 'log-keys'))).sort();
    expect(jobKeyName).toBe(`${keyName}.jobs`);
    const key = await readFile(path.join(dataDir, 'log-keys', keyName!), 'utf8');
    const jobKey = await readFile(path.join(dataDir, 'log-keys', jobKeyName!), 'utf8');
    const receipt = (await script('jobs', ['receipt', '1042'])).stdout;
    expect(receipt).toMatch(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]/);
    const firstRun = await serveAndVerify();
    expect(firstRun.code, firstRun.stdout + firstRun.stderr).toBe(0);

    const backupFile = path.join(work, 'backup.sqlite');
    const backup = await script('backup', [backupFile]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/with 2 review log keys and the last published log \(\d+ files\)/);
    expect(backup.stderr).toMatch(/^WARNING: .* holds the review log's PRIVATE signing key \(mode 0600\)/);
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);

    await rm(dataDir, { recursive: true });
    await rm(distDir, { recursive: true });
    await rm(path.join(work, '.builds'), { recursive: true });
    const restored = await script('restore', [backupFile]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/2 review log keys and the last published log/);
    expect((await stat(path.join(dataDir, 'log-keys', keyName!))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dataDir, 'log-keys', jobKeyName!))).mode & 0o777).toBe(0o600);
    expect((await script('jobs', ['receipt', '1042'])).stdout.match(/[0-9A-Z]{4}(-[0-9A-Z]{4}){3}-[0-9A-Z]/)?.[0]).toBe(receipt.match(/[0-9A-Z]{4}(-[0-9A-Z]{4}){3}-[0-9A-Z]/)?.[0]);

    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'after-restore', rating: 4, date: '2025-03-03', text: 'Fixed it after the move.', author: 'Ali', verified: true });
    await writeFile(file, JSON.stringify(reviews));
    const second = await build();
    expect(second.ok, second.ok ? '' : second.message).toBe(true);
    if (second.ok) expect(second.log).toMatchObject({ added: 1, size: first.ok ? first.log.size + 1 : -1 });
    // No second key: the same key files, the same bytes; the job was not logged again (added: 1 above).
    expect((await readdir(path.join(dataDir, 'log-keys'))).sort()).toEqual([keyName, jobKeyName]);
    expect(await readFile(path.join(dataDir, 'log-keys', keyName!), 'utf8')).toBe(key);
    expect(await readFile(path.join(dataDir, 'log-keys', jobKeyName!), 'utf8')).toBe(jobKey);
    const secondRun = await serveAndVerify();
    expect(secondRun.code, secondRun.stdout + secondRun.stderr).toBe(0);
  }, 600_000);
});
