/**
 * The slice-feed case of `npm run bench -- websub` (issue 23 item 5): one change reaching 200 slice
 * topics, 10,000 HTTPS subscribers in all (50 per topic), with the hub's state in SQLite. The demo
 * content gets 100 more technicians (so it has 200 slice topics and more); the change is the business's
 * new name, which every feed's title carries, so every topic changes at once. The clock runs from the
 * publish ping until every subscriber has its own topic's new content, byte for byte. Run by websub.ts,
 * which hands over its service child and helpers.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { createSqliteHubStore } from '../../sidecar/websub/index.ts';
import { startBenchSubscribers } from './bench-subscribers.ts';
import type { BenchRow } from './types.ts';

const TOPICS = 200;
const SUBSCRIBERS = 10_000;
const EXTRA_TECHNICIANS = 100;
const TIMEOUT_MS = 240_000;

type Service = { child: ChildProcess; url: string };

export type SliceFanOutDeps = {
  root: string;
  work: string;
  publicUrl: string;
  tls: { key: string; cert: string };
  caFile: string;
  build: (contentDir: string, outDir: string) => Promise<void>;
  startService: (setup: { distDir: string; store: { kind: 'sqlite'; dataDir: string } }, caFile: string) => Promise<Service>;
  stopService: (child: Service['child']) => Promise<void>;
  swapIn: (from: string, distDir: string) => Promise<void>;
};

export async function runSliceFanOut(deps: SliceFanOutDeps): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(deps.work, 'slices-'));
  const contentDir = path.join(dir, 'content');
  await cp(path.join(deps.root, 'examples/demo'), contentDir, { recursive: true });
  const businessFile = path.join(contentDir, 'business.json');
  const business = JSON.parse(await readFile(businessFile, 'utf8')) as { name: string; technicians: { name: string }[] };
  for (let i = 1; i <= EXTRA_TECHNICIANS; i++) business.technicians.push({ name: `Bench Technician ${String(i).padStart(3, '0')}` });
  await writeFile(businessFile, JSON.stringify(business, null, 2));
  const v1 = path.join(dir, 'v1', 'dist');
  const v2 = path.join(dir, 'v2', 'dist');
  await deps.build(contentDir, v1);
  await writeFile(businessFile, JSON.stringify({ ...business, name: `${business.name} & Sons` }, null, 2));
  await deps.build(contentDir, v2);

  const [before, after] = [await readManifest(v1), await readManifest(v2)];
  if (!before || !after) throw new Error('a build of the slice bench is incomplete');
  const slicePaths = Object.keys(before.files).filter((p) => p.startsWith(PATHS.feedsPrefix)).sort();
  const topics = slicePaths.slice(0, TOPICS);
  if (topics.length < TOPICS) throw new Error(`only ${topics.length} slice topics`);
  const newBodies = await Promise.all(topics.map((p) => readFile(path.join(v2, after.files[p]!.file))));

  const urls = createServiceUrls(deps.publicUrl);
  const subscribers = await startBenchSubscribers(deps.tls, TIMEOUT_MS);
  const distDir = path.join(dir, 'serve', 'dist');
  await cp(v1, distDir, { recursive: true });
  const dataDir = path.join(dir, 'data');
  const store = await createSqliteHubStore({ dataDir });
  const now = Date.now();
  for (const topic of urls.topics(slicePaths)) {
    const entry = before.files[new URL(topic).pathname]!;
    const body = await readFile(path.join(v1, entry.file));
    await store.recordTopicContent({ topic, hash: createHash('sha256').update(body).digest('hex'), contentType: entry.type, body }, now);
  }
  const perTopic = SUBSCRIBERS / TOPICS;
  for (let t = 0; t < TOPICS; t++) {
    await Promise.all(
      Array.from({ length: perTopic }, (_, i) =>
        store.saveSubscription(
          { topic: urls.absolute(topics[t]!), callback: `${subscribers.origin}/s/${t}/${i}`, secret: `secret-${t}-${i}`, leaseSeconds: 864_000, expiresAt: now + 864_000_000 },
          now,
        ),
      ),
    );
  }
  await store.close();

  const service = await deps.startService({ distDir, store: { kind: 'sqlite', dataDir } }, deps.caFile);
  try {
    // Subscriber `/s/<topic>/<i>` counts once it received its topic's new content.
    const delivered = subscribers.expect((url, body) => newBodies[Number(url.split('/')[2])]?.equals(body) === true, SUBSCRIBERS);
    await deps.swapIn(v2, distDir);
    const started = performance.now();
    const ping = await fetch(`${service.url}${PATHS.hub}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': urls.feedXml }).toString(),
    });
    if (ping.status !== 202) throw new Error(`the publish ping got ${ping.status}: ${await ping.text()}`);
    await delivered;
    const seconds = (performance.now() - started) / 1000;
    const { wrong } = subscribers.counts();
    const what = `websub one change to ${TOPICS} slice topics, ${SUBSCRIBERS.toLocaleString('en-US')} subscribers, SQLite`;
    return [
      { name: `${what}: publish → all have their topic's new content`, value: seconds, unit: 's' },
      { name: `${what}: deliveries per second`, value: SUBSCRIBERS / seconds, unit: '/s' },
      { name: `${what}: deliveries with the wrong content`, value: wrong, unit: '' },
    ];
  } finally {
    await deps.stopService(service.child);
    await subscribers.close();
    await rm(dir, { recursive: true, force: true });
  }
}
