/**
 * A publish from the wrong shell, and a second `npm start` on the same folders with another address
 * (issue 41 items 1 and 2): each exits non-zero before anything is written, with one line naming both
 * addresses; the running service's log and datasets are byte-identical after; the next real publish,
 * from a shell whose PORT is not the service's, finds the service, goes live and notifies.
 */
import { cp, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { runScript } from '../helpers/run-script.ts';
import { startSubscribedServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import { useTestSubscriber } from '../websub/test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const WRONG = 'http://localhost:4601';
const CALLBACK = '/wrong-address/reviews-json';
const t = useTestSubscriber();
let work: string;
let contentDir: string;
let distDir: string;
let dataDir: string;
let service: ServiceProcess;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'wrong-address-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  dataDir = path.join(work, 'data');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  service = await startSubscribedServiceProcess({ contentDir, distDir, workDir: work, publicUrl: PUBLIC, subscriber: t, topic: createServiceUrls(PUBLIC).reviewsJson, callbackPath: CALLBACK });
}, 300_000);
afterAll(async () => {
  if (service) await stopServiceProcess(service);
  if (work) await rm(work, { recursive: true, force: true });
});

/** A command as a shell with only these settings runs it (no .env). */
const run = (script: string, env: Record<string, string>) =>
  runScript(process.execPath, [script], { env: { ...process.env, ENV_FILE: 'none', HOST: '127.0.0.1', CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: dataDir, ...env } });

/** What must not change when a command refuses: the service's answers and the folders. */
async function snapshot() {
  const get = async (p: string) => Buffer.from(await (await fetch(`${service.url}${p}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).toString('base64');
  return {
    checkpoint: await get('/log/checkpoint'),
    reviews: await get('/reviews.json'),
    dist: await realpath(distDir),
    keys: await readdir(path.join(dataDir, 'log-keys')),
  };
}

describe('a command for another address than the running service', () => {
  it.each([
    ['npm run publish', 'scripts/publish.ts', 'Nothing published'],
    ['a second npm start', 'scripts/start.ts', 'Not started'],
  ])('%s refuses before writing, with one line naming both addresses', async (_name, script, verb) => {
    const before = await snapshot();
    const refused = await run(script, { PORT: '4601', PUBLIC_URL: WRONG });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${verb}: `));
    expect(lines[0]).toContain(WRONG);
    expect(lines[0]).toContain(PUBLIC);
    expect(refused.stdout).not.toContain('uild');
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('the next real publish, from a shell with another PORT, finds the service, goes live and notifies', async () => {
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'after-refusals', rating: 5, date: '2025-03-02', text: 'Came back the next day.', author: 'Sam', verified: true });
    await writeFile(file, JSON.stringify(reviews));
    const published = await run('scripts/publish.ts', { PORT: '4601', PUBLIC_URL: PUBLIC });
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toContain(`The service at ${service.url} now serves build`);
    const pushed = await t.sub.waitForNotification(CALLBACK, (r) => r.body.includes('after-refusals'), 30_000);
    expect(JSON.parse(pushed.body.toString()).reviews.map((r: { id: string }) => r.id)).toContain('after-refusals');
  }, 300_000);
});
