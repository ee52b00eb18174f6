/** `npm run witness-request`: the participation request for witness-network.org, from the published log's key. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVerifierKey, generateSigner } from '../../core/log/index.ts';
import { runScript } from '../helpers/run-script.ts';

let work: string;
const key = formatVerifierKey(generateSigner('reviews.erin.example/log'));
const run = (args: string[], env: Record<string, string> = {}) =>
  runScript(process.execPath, ['scripts/witness-request.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ENV_FILE: 'none', PUBLIC_URL: 'https://reviews.erin.example', DIST_DIR: path.join(work, 'dist'), DATA_DIR: path.join(work, 'data'), ...env },
  });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'witness-request-'));
  await mkdir(path.join(work, 'dist', 'log'), { recursive: true });
  await writeFile(path.join(work, 'dist', 'log', 'vkey'), `${key}\n`);
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run witness-request', () => {
  it('prints the origin, the log key, the declared rate and the contact', async () => {
    const done = await run(['--contact', 'owner@erin.example'], { LOG_WITNESS_QPD: '12' });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const lines = done.stdout.split('\n');
    expect(lines).toContain('origin reviews.erin.example/log');
    expect(lines).toContain(`vkey ${key}`);
    expect(lines).toContain('qpd 12');
    expect(lines).toContain('contact owner@erin.example');
    expect(lines).toContain('list staging');
  });

  it('asks for a contact, and refuses when this address has no log yet', async () => {
    expect((await run([])).code).toBe(2);
    const other = await run(['--contact', 'x@y.example'], { PUBLIC_URL: 'https://reviews.frank.example' });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/No review log for reviews\.frank\.example\/log/);
  });
});
