/**
 * `npm run jobs -- receipt <job id>` as a child process, as an owner runs it: a demo job's receipt code
 * and address (the demo's job key is derived from its origin), the job key of an owner's content never
 * created by it, the address to use when it exists only for another one, and the exit codes.
 */
import { mkdir, mkdtemp, readdir, cp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatReceiptCode } from '../../core/log/job.ts';
import { demoJobKey, jobSecretOf } from '../../scripts/lib/job-key.ts';
import { runScript } from '../helpers/run-script.ts';
import { DEMO_CONTENT } from '../helpers/site-build.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'jobs-command-'));
});

function runJobs(args: readonly string[], env: Record<string, string> = {}) {
  const base = { PATH: process.env.PATH ?? '', ENV_FILE: 'none', PUBLIC_URL: 'https://reviews.example.com', DATA_DIR: path.join(work, 'data'), DIST_DIR: path.join(work, 'dist') };
  return runScript(process.execPath, ['scripts/jobs.ts', ...args], { env: { ...base, CONTENT_DIR: DEMO_CONTENT, ...env } });
}

describe('npm run jobs -- receipt', () => {
  it("prints a demo job's receipt code and the address that finds it", async () => {
    const run = await runJobs(['receipt', 'J-1001']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const code = formatReceiptCode(jobSecretOf(demoJobKey('reviews.example.com/log'), 'J-1001'));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}-[0-9A-HJKMNP-TV-Z]$/);
    expect(run.stdout).toContain(`Receipt code for job J-1001: ${code}\n`);
    expect(run.stdout).toContain(`Check it at: https://reviews.example.com/log/job/?code=${code}\n`);
    expect(run.stdout).toContain('Logged: not known here (no build in');
  });

  it('exits 1 naming an unknown job', async () => {
    const run = await runJobs(['receipt', 'J-0000']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No job "J-0000" in');
    expect(run.stdout).toBe('');
  });

  it.each([[[]], [['receipt']], [['print', 'J-1001']], [['receipt', 'J-1001', 'J-1002']]])('exits 2 with the usage for %j', async (args) => {
    const run = await runJobs(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: npm run jobs -- receipt <job id>');
  });

  it("says an owner's job key is missing, with the way back, and creates none", async () => {
    const content = path.join(work, 'content');
    await cp(DEMO_CONTENT, content, { recursive: true });
    const dataDir = path.join(work, 'owner-data');
    const run = await runJobs(['receipt', 'J-1001'], { CONTENT_DIR: content, DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('There is no job key for reviews.example.com/log on this machine');
    expect(run.stderr).toContain('npm run restore');
    expect(run.stderr).toContain('npm run publish first');
    expect(await readdir(dataDir).catch(() => 'absent')).toBe('absent');
  });

  it("names the address whose job key the machine has, when run with another PUBLIC_URL", async () => {
    const content = path.join(work, 'content-other');
    await cp(DEMO_CONTENT, content, { recursive: true });
    const dataDir = path.join(work, 'other-data');
    await mkdir(path.join(dataDir, 'log-keys'), { recursive: true });
    // As a publish for http://localhost:4601 leaves it (scripts/lib/job-key.ts).
    const keyFile = path.join(dataDir, 'log-keys', `${encodeURIComponent('localhost:4601/log')}.jobs`);
    await writeFile(keyFile, `reviews-job-key/v1 ${Buffer.alloc(32, 7).toString('base64')}\n`);
    const run = await runJobs(['receipt', 'J-1001'], { CONTENT_DIR: content, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:4321' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`There is no job key for localhost:4321/log on this machine, only for localhost:4601/log (${path.join(dataDir, 'log-keys')}): run this with the PUBLIC_URL (or PORT) the service publishes with, as in .env.`);
    expect(await readdir(path.join(dataDir, 'log-keys'))).toEqual([path.basename(keyFile)]);
  });
});
