/**
 * A publish killed between its swap and its pings (issue 24 item 3). `npm run publish` runs as a user runs
 * it, against the real service process, but its pings go through a gate in this test: the gate passes
 * `/healthz` on to the service and, when the first publish ping arrives (so after the build was swapped
 * in, before any ping reached the hub), SIGKILLs the publish and drops the ping. Nobody pings the service
 * again: it must notice the build on its own (file watch, or its check every BUILD_CHECK_INTERVAL_MS),
 * serve it, make the new review searchable and notify the subscriber.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildsDirOf } from '../../core/publishing/build-folders-fs.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { startSubscribedServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import { waitUntil } from './harness.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const INTERVAL_MS = 1_000;
/** The documented delay is the check interval plus the time to load a build: seconds on a busy machine. */
const LOAD_ALLOWANCE_MS = 15_000;
const CALLBACK = '/killed-publish/feed';
const t = useTestSubscriber();

let work: string;
let contentDir: string;
let distDir: string;
let service: ServiceProcess;
let gate: Server;

/** Passes every request on to the service, except a publish ping: that one kills `publisher()` and is dropped. */
function startGate(target: string, publisher: () => ChildProcess | undefined, onPing: (killedAt: number) => void): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === PATHS.hub) {
      const child = publisher();
      child?.once('exit', () => {
        onPing(Date.now());
        res.socket?.destroy();
      });
      child?.kill('SIGKILL');
      return;
    }
    const forwarded = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'publish-killed-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  service = await startSubscribedServiceProcess({
    contentDir,
    distDir,
    workDir: work,
    publicUrl: PUBLIC,
    subscriber: t,
    topic: urls.feedXml,
    callbackPath: CALLBACK,
    env: { BUILD_CHECK_INTERVAL_MS: String(INTERVAL_MS) },
  });
}, 120_000);

afterAll(async () => {
  gate?.close();
  if (service) await stopServiceProcess(service);
  await rm(work, { recursive: true, force: true });
});

describe('npm run publish SIGKILLed after its swap, before its pings', () => {
  it('the service serves the new build, finds the new review and notifies the subscriber within the check interval', async () => {
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'r-killed-1', rating: 4, date: '2025-03-02', text: 'Published by a process that died before it could ping.', author: 'Kim', verified: true });
    await writeFile(file, JSON.stringify(reviews));

    let publish: ChildProcess | undefined;
    let killedAt: number | undefined;
    gate = await startGate(service.url, () => publish, (at) => (killedAt = at));
    const { port } = gate.address() as { port: number };
    // Publish pings the service where its record in .builds/ says it listens (scripts/lib/running-service.ts):
    // the record is pointed at the gate, as it would be for a service reached through a proxy.
    // The service writes its record just after it logs where it listens: waited for, else it could land after this edit.
    const builds = buildsDirOf(distDir);
    const recordFile = await waitUntil(async () => {
      for (const name of (await readdir(builds)).filter((n) => n.startsWith('serving-'))) {
        const text = await readFile(path.join(builds, name), 'utf8').catch(() => '');
        if (text.includes(`"url":"${service.url}"`)) return { value: path.join(builds, name) };
      }
      return undefined;
    }, 10_000);
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as { url: string };
    await writeFile(recordFile, JSON.stringify({ ...record, url: `http://127.0.0.1:${port}` }));
    publish = spawn(process.execPath, ['scripts/publish.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: PUBLIC, CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: path.join(work, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      publish!.once('exit', (code, signal) => resolve({ code, signal })),
    );
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(killedAt).toBeDefined();
    // The swap happened: the build on disk carries the new review; no ping ever reached the hub.
    const manifest = JSON.parse(await readFile(path.join(distDir, '_manifest.json'), 'utf8'));
    expect(await readFile(path.join(distDir, 'reviews.json'), 'utf8')).toContain('r-killed-1');
    expect(service.output()).not.toContain('"event":"websub_publish');

    const pushed = await t.sub.waitForNotification(CALLBACK, (r) => r.body.includes('r-killed-1'), INTERVAL_MS + LOAD_ALLOWANCE_MS);
    const notifiedAfterMs = Date.now() - killedAt!;
    console.log(`publish killed after its swap: notified ${notifiedAfterMs} ms later (BUILD_CHECK_INTERVAL_MS ${INTERVAL_MS})`);
    expect(pushed.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(notifiedAfterMs).toBeLessThan(INTERVAL_MS + LOAD_ALLOWANCE_MS);

    const served = await fetch(`${service.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(served.headers.get('etag')).toBe(manifest.files['/reviews.json'].etag);
    const found = (await (await fetch(`${service.url}${PATHS.search}?query=${encodeURIComponent('could ping')}`)).json()) as { reviews: { id: string }[] };
    expect(found.reviews.map((r) => r.id)).toEqual(['r-killed-1']);
    expect(t.sub.notifications(CALLBACK).filter((r) => r.body.includes('r-killed-1'))).toHaveLength(1);
  }, 180_000);
});
