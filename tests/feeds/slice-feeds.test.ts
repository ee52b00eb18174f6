/**
 * Feeds per slice (issue 23 items 1 and 2), end to end: a real build of a content folder served by the
 * real sidecar, real HTTPS subscribers (test CA) of slice topics, and publishes made as `npm run publish
 * -- --ping-only` makes them (a new build swapped in, then a `hub.mode=publish` ping for the seed topics).
 *
 * - Every technician, service, aspect's complaints and all complaints has an Atom feed (valid against
 *   RFC 4287's grammar) and a JSON Feed, listed in /feeds.json and announced on its page, each carrying
 *   exactly the slice's newest reviews.
 * - Each is a WebSub topic: a review naming one technician reaches that technician's subscribers and
 *   nobody else's, a complaint reaches the complaint feeds, and a removed technician's feed answers 404
 *   while its subscribers get `hub.mode=denied`.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_ITEM_COUNT, isComplaint, JsonFeedSchema } from '../../core/feeds/index.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls, sliceFeedPath } from '../../core/urls.ts';
import type { RunningSidecar } from '../../sidecar/server.ts';
import { validateAtom } from '../helpers/atom-validate.ts';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startSubscriber, type Subscriber } from '../websub/subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const MIKE = urls.sliceFeed({ kind: 'technician', key: 'michael-reyes' }, 'atom');
const DANA = urls.sliceFeed({ kind: 'technician', key: 'dana-whitfield' }, 'json');
const AL = urls.sliceFeed({ kind: 'technician', key: 'al-okafor' }, 'atom');
const COMPLAINTS = urls.sliceFeed({ kind: 'complaints' }, 'json');
const SUBSCRIPTIONS = { '/sub/mike': MIKE, '/sub/dana': DANA, '/sub/al': AL, '/sub/complaints': COMPLAINTS, '/sub/all': urls.reviewsJson };
/** Three builds and a service on a machine shared with other work. */
const TIMEOUT = 240_000;

type FeedsIndex = { hub: string; feeds: { kind: string; key: string | null; title: string; page_url: string; atom_url: string; json_url: string }[] };

let ca: TestCa;
let sub: Subscriber;
let service: RunningSidecar;
let contentDir: string;
let distDir: string;

const pathOf = (url: string) => new URL(url).pathname;
const get = (url: string) => fetch(`${service.url}${pathOf(url)}`, { headers: { 'accept-encoding': 'identity' } });
const getJson = async <T>(url: string) => (await (await get(url)).json()) as T;

async function hubPost(form: Record<string, string>) {
  return fetch(`${service.url}${pathOf(urls.hub)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

/** Edits the content, builds it into the served folder, and pings the hub for the seed topics, as a publish does. */
async function publish(edit: () => Promise<void>) {
  await edit();
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  const form = new URLSearchParams({ 'hub.mode': 'publish' });
  for (const topic of urls.topics()) form.append('hub.url', topic);
  const ping = await fetch(`${service.url}${pathOf(urls.hub)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  expect(ping.status).toBe(202);
  await service.hub.drained();
}

async function addReview(review: Record<string, unknown>) {
  const file = path.join(contentDir, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
  reviews.push({ verified: true, source: 'direct', ...review });
  await writeFile(file, JSON.stringify(reviews, null, 2));
}

const count = (path: string) => sub.notifications(path).length;

beforeAll(async () => {
  ca = createTestCa();
  sub = await startSubscriber(ca);
  const work = await mkdtemp(path.join(tmpdir(), 'slice-feeds-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  service = await startTestSidecar({
    distDir,
    publicUrl: PUBLIC,
    env: { CONTENT_DIR: contentDir, DATA_DIR: path.join(work, 'data'), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_RETRY_DELAYS_MS: '50,100' },
    sidecar: { callbackClient: { ca: ca.certPem } },
  });
}, TIMEOUT);

afterAll(async () => {
  await service?.close();
  await sub?.close();
  ca?.remove();
});

describe('a feed per slice', () => {
  it('lists every technician, service, aspect complaint and all complaints in /feeds.json, main feeds first', async () => {
    const index = await getJson<FeedsIndex>(urls.feedsIndex);
    const business = JSON.parse(await readFile(path.join(contentDir, 'business.json'), 'utf8')) as { services: { id: string }[] };
    const insights = await getJson<{ aspects: { id: string }[] }>(urls.insightsJson);
    expect(index.hub).toBe(urls.hub);
    expect(index.feeds.map((f) => `${f.kind}:${f.key ?? ''}`)).toEqual([
      'all:',
      'technician:michael-reyes',
      'technician:dana-whitfield',
      'technician:al-okafor',
      ...business.services.map((s) => `service:${s.id}`),
      ...insights.aspects.map((a) => `aspect-complaints:${a.id}`),
      'complaints:',
    ]);
    expect(index.feeds[0]).toMatchObject({ atom_url: urls.feedXml, json_url: urls.feedJson, page_url: urls.home });
    expect(index.feeds[1]).toMatchObject({ atom_url: MIKE, page_url: urls.absolute('/technicians/michael-reyes/') });
    expect(index.feeds.at(-1)!.json_url).toBe(COMPLAINTS);
  });

  it('serves each as valid Atom and JSON Feed holding exactly the slice\'s newest reviews, with its WebSub links', async () => {
    const { reviews } = await getJson<{ reviews: PublishedReview[] }>(urls.reviewsJson);
    const index = await getJson<FeedsIndex>(urls.feedsIndex);
    const selectors: Record<string, (key: string | null) => (r: PublishedReview) => boolean> = {
      technician: (key) => (r) => r.technicians.some((name) => index.feeds.find((f) => f.key === key)!.title.endsWith(`: ${name}`)),
      service: (key) => (r) => r.services.includes(key!),
      'aspect-complaints': (key) => (r) => r.aspects.some((a) => a.aspect === key && a.polarity === 'negative'),
      complaints: () => isComplaint,
    };
    let nonEmpty = 0;
    for (const feed of index.feeds.slice(1)) {
      const expected = reviews.filter(selectors[feed.kind]!(feed.key)).slice(0, FEED_ITEM_COUNT).map((r) => urls.review(r));
      if (expected.length > 0) nonEmpty++;
      const atom = await get(feed.atom_url);
      expect(atom.status, feed.atom_url).toBe(200);
      expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
      expect(atom.headers.get('link')).toBe(`<${urls.hub}>; rel="hub", <${feed.atom_url}>; rel="self"`);
      const xml = await atom.text();
      expect(await validateAtom(xml), feed.atom_url).toEqual([]);
      expect([...xml.matchAll(/<entry>\s*<id>([^<]+)<\/id>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))).toEqual(expected);
      expect(xml).toContain(`<link rel="self" type="application/atom+xml" href="${feed.atom_url}"/>`);

      const json = await get(feed.json_url);
      expect(json.headers.get('link')).toBe(`<${urls.hub}>; rel="hub", <${feed.json_url}>; rel="self"`);
      const parsed = JsonFeedSchema.parse(await json.json());
      expect(parsed).toMatchObject({ feed_url: feed.json_url, home_page_url: feed.page_url, title: feed.title, hubs: [{ type: 'WebSub', url: urls.hub }] });
      expect(parsed.items.map((item) => item.id)).toEqual(expected);
    }
    expect(nonEmpty).toBeGreaterThan(5);
  }, TIMEOUT);

  it('announces a technician\'s feeds on their page and the complaint feeds on the home page', async () => {
    const alternates = async (page: string) =>
      [...(await (await get(urls.absolute(page))).text()).matchAll(/<link rel="alternate" type="([^"]+)"[^>]* href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(await alternates('/technicians/michael-reyes/')).toEqual([
      `application/atom+xml ${urls.feedXml}`,
      `application/feed+json ${urls.feedJson}`,
      `application/atom+xml ${MIKE}`,
      `application/feed+json ${urls.sliceFeed({ kind: 'technician', key: 'michael-reyes' }, 'json')}`,
    ]);
    const home = await alternates('/');
    expect(home).toContain(`application/feed+json ${COMPLAINTS}`);
    expect(home).toContain(`application/atom+xml ${urls.sliceFeed({ kind: 'aspect-complaints', key: 'price' }, 'atom')}`);
  });
});

describe('each slice feed is a WebSub topic', () => {
  beforeAll(async () => {
    for (const [callbackPath, topic] of Object.entries(SUBSCRIPTIONS)) {
      const answer = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': sub.callback(callbackPath) });
      expect(answer.status, topic).toBe(202);
    }
    await service.hub.settled();
    for (const callbackPath of Object.keys(SUBSCRIPTIONS)) expect(sub.verifications(callbackPath), callbackPath).toHaveLength(1);
  }, TIMEOUT);

  it('refuses a topic that is no feed of the service, naming where the feeds are listed', async () => {
    const answer = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': urls.absolute(sliceFeedPath({ kind: 'technician', key: 'nobody' }, 'atom')), 'hub.callback': sub.callback('/sub/nobody') });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toContain(`or a feed listed in ${urls.feedsIndex}`);
  });

  it("pushes a review that names Mike to Mike's subscribers only, with the feed's exact bytes", async () => {
    const before = { mike: count('/sub/mike'), dana: count('/sub/dana'), al: count('/sub/al'), complaints: count('/sub/complaints'), all: count('/sub/all') };
    await publish(() => addReview({ id: 'r-0100', rating: 5, date: '2025-02-27', text: 'Mike replaced the igniter and explained everything.', author: 'Lee P.' }));
    expect(count('/sub/mike')).toBe(before.mike + 1);
    expect(count('/sub/all')).toBe(before.all + 1);
    expect({ dana: count('/sub/dana'), al: count('/sub/al'), complaints: count('/sub/complaints') }).toEqual({ dana: before.dana, al: before.al, complaints: before.complaints });
    const pushed = sub.notifications('/sub/mike').at(-1)!;
    const served = Buffer.from(await (await get(MIKE)).arrayBuffer());
    expect(pushed.body.equals(served)).toBe(true);
    expect(pushed.body.toString()).toContain('#r-0100');
    expect(pushed.headers['link']).toBe(`<${urls.hub}>; rel="hub", <${MIKE}>; rel="self"`);
  }, TIMEOUT);

  it("pushes a complaint that names Dana to Dana's and the complaint feeds' subscribers, not Mike's", async () => {
    const before = { mike: count('/sub/mike'), dana: count('/sub/dana'), complaints: count('/sub/complaints') };
    await publish(() => addReview({ id: 'r-0101', rating: 1, date: '2025-02-28', text: 'Dana came four hours late and the heater still leaks.', author: 'Sam R.' }));
    expect(count('/sub/dana')).toBe(before.dana + 1);
    expect(count('/sub/complaints')).toBe(before.complaints + 1);
    expect(count('/sub/mike')).toBe(before.mike);
    expect(JSON.parse(sub.notifications('/sub/complaints').at(-1)!.body.toString()).items[0].id).toBe(urls.review({ id: 'r-0101', date: '2025-02-28' }));
  }, TIMEOUT);

  it('takes a removed technician\'s feed down: 404, its subscribers denied, new subscriptions refused', async () => {
    expect((await get(AL)).status).toBe(200);
    await publish(async () => {
      const file = path.join(contentDir, 'business.json');
      const business = JSON.parse(await readFile(file, 'utf8')) as { technicians: { name: string }[] };
      business.technicians = business.technicians.filter((t) => t.name !== 'Al Okafor');
      await writeFile(file, JSON.stringify(business, null, 2));
    });
    expect((await get(AL)).status).toBe(404);
    expect(sub.denials('/sub/al').map((r) => r.query.get('hub.topic'))).toEqual([AL]);
    expect(sub.denials('/sub/mike')).toEqual([]);
    const again = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': AL, 'hub.callback': sub.callback('/sub/al') });
    expect(again.status).toBe(400);
  }, TIMEOUT);
});
