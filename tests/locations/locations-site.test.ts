/**
 * Locations end to end (issue 43): a real build of the small test content with two locations added,
 * served by the real sidecar. Every figure is checked against an independent count of the content files.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSidecar } from '../../sidecar/server.ts';
import { connectClient } from '../mcp/mcp-fixture.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startSubscriber, type Subscriber } from '../websub/subscriber.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { countContentReviews, listLocationIds, LOCATIONS, PLACED, writeTwoLocationContent, type ContentReview, type Figures } from './two-locations.ts';

const PUBLIC = 'https://reviews.example.com';
const TIMEOUT = 240_000;

let service: RunningSidecar;
let contentReviews: ContentReview[];
let contentDir: string;
let distDir: string;
let ca: TestCa;
let sub: Subscriber;
const get = (p: string, init?: RequestInit) => fetch(`${service.url}${p}`, init);
const getJson = async <T>(p: string) => (await (await get(p)).json()) as T;

const countContent = (filter: (r: ContentReview) => boolean): Figures => countContentReviews(contentReviews, filter);
const idsOf = (location: string) => listLocationIds(contentReviews, location);

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'locations-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  contentReviews = await writeTwoLocationContent(contentDir);
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  ca = createTestCa();
  sub = await startSubscriber(ca);
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

const hubPost = (form: Record<string, string> | URLSearchParams) =>
  get('/api/websub/hub', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });

describe('/reviews.json of a business with locations', () => {
  it("gives each location's count, average and histogram, equal to a count of the content, in business.json order", async () => {
    const dataset = await getJson<{ aggregate_rating: Figures; locations: { id: string; name: string; aggregate_rating: Figures }[] }>('/reviews.json');
    expect(dataset.locations.map((l) => [l.id, l.name])).toEqual(LOCATIONS.map((l) => [l.id, l.name]));
    for (const location of dataset.locations) expect(location.aggregate_rating).toMatchObject(countContent((r) => r.location === location.id));
    expect(dataset.locations.map((l) => l.aggregate_rating.review_count)).toEqual([3, 2]);
  });

  it("counts the business's figures as its locations' plus the reviews that name none", async () => {
    const dataset = await getJson<{ aggregate_rating: Figures; locations: { aggregate_rating: Figures }[] }>('/reviews.json');
    const none = countContent((r) => r.location === undefined);
    expect(none.review_count).toBe(2);
    const parts = [...dataset.locations.map((l) => l.aggregate_rating), none];
    expect(dataset.aggregate_rating.review_count).toBe(parts.reduce((s, f) => s + f.review_count, 0));
    for (const star of ['1', '2', '3', '4', '5']) expect(dataset.aggregate_rating.distribution[star]).toBe(parts.reduce((s, f) => s + f.distribution[star]!, 0));
    expect(dataset.aggregate_rating).toMatchObject(countContent(() => true));
  });

  it('publishes the locations without their Google names, and each review with its location only when it has one', async () => {
    const dataset = await getJson<{ business: { locations: Record<string, unknown>[] }; reviews: { id: string; location?: string }[] }>('/reviews.json');
    expect(dataset.business.locations).toEqual(LOCATIONS.map(({ google_location: _, ...l }) => l));
    for (const review of dataset.reviews) {
      if (PLACED[review.id]) expect(review.location).toBe(PLACED[review.id]);
      else expect(review).not.toHaveProperty('location');
    }
  });
});

describe('/insights.json of a business with locations', () => {
  it('gives each location the same count and average, with a filter that lists its reviews', async () => {
    const insights = await getJson<{ basis: { review_count: number }; entities: { locations: { id: string; name: string; reviews: number; average_rating: number | null; filter: Record<string, string> }[] } }>('/insights.json');
    expect(insights.entities.locations.map((l) => l.id)).toEqual(['springfield', 'chatham']);
    for (const location of insights.entities.locations) {
      const counted = countContent((r) => r.location === location.id);
      expect(location).toMatchObject({ reviews: counted.review_count, average_rating: counted.rating_value, filter: { location: location.id } });
    }
    const counted = insights.entities.locations.reduce((s, l) => s + l.reviews, 0) + countContent((r) => r.location === undefined).review_count;
    expect(insights.basis.review_count).toBe(counted);
  });
});

describe('the location filter', () => {
  it.each(['springfield', 'chatham'])('gives GET /api/reviews/search exactly the reviews of %s', async (id) => {
    const body = await getJson<{ reviews: { id: string; location?: string }[]; total: number }>(`/api/reviews/search?location=${id}&limit=100`);
    expect(body.reviews.map((r) => r.id)).toEqual(idsOf(id));
    expect(body.total).toBe(idsOf(id).length);
    // Combined with AND.
    const fives = await getJson<{ reviews: { id: string; rating: number }[] }>(`/api/reviews/search?location=${id}&rating=5`);
    expect(fives.reviews.map((r) => r.id)).toEqual(idsOf(id).filter((rid) => contentReviews.find((r) => r.id === rid)!.rating === 5));
  });

  it('answers an unknown location with a 400 that names the known ids', async () => {
    const response = await get('/api/reviews/search?location=Springfield');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: { path: string[]; code: string; message: string }[] };
    expect(body.issues).toEqual([{ path: ['location'], code: 'unknown_location', message: 'no location has the id "Springfield"; known locations: springfield, chatham' }]);
  });

  it('gives MCP search_reviews the same reviews, lists the argument for this business, and refuses an unknown id naming the known ones', async () => {
    const { client } = await connectClient(new URL(`${service.url}/mcp`));
    try {
      const { tools } = await client.listTools();
      const search = tools.find((t) => t.name === 'search_reviews')!;
      expect(search.inputSchema.properties).toHaveProperty('location');
      // The budget of tools/list (tests/mcp/budgets.test.ts) holds for a business with locations too.
      expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(12 * 1024);
      for (const id of ['springfield', 'chatham']) {
        const result = await client.callTool({ name: 'search_reviews', arguments: { location: id, limit: 100 } });
        expect((result.structuredContent as { reviews: { id: string }[] }).reviews.map((r) => r.id)).toEqual(idsOf(id));
      }
      const bad = await client.callTool({ name: 'search_reviews', arguments: { location: 'nampa' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0]!.text).toContain('location: no location has the id "nampa"; known locations: springfield, chatham');
    } finally {
      await client.close();
    }
  });
});

describe('the location pages', () => {
  /** The text of an HTML page with tags and white space collapsed. */
  const textOf = async (p: string) => {
    const response = await get(p, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    return (await response.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replace(/ ,/g, ',');
  };

  it.each(LOCATIONS.map((l) => [l.id, l.name]))("/locations/%s/ shows that location's count and average, equal to a count of the content", async (id, name) => {
    const counted = countContent((r) => r.location === id);
    const text = await textOf(`/locations/${id}/`);
    expect(text).toContain(name);
    expect(text).toMatch(new RegExp(`${counted.rating_value.toFixed(1)} average of (only )?${counted.review_count} reviews`));
    // Exactly its reviews, each as a card with its anchor.
    const html = await (await get(`/locations/${id}/`)).text();
    const cards = [...html.matchAll(/<article[^>]* id="(r-\d+)"/g)].map((m) => m[1]);
    expect(cards).toEqual(idsOf(id));
  });

  it('lists every location on /locations/, with its own figures', async () => {
    const text = await textOf('/locations/');
    for (const { id, name } of LOCATIONS) {
      const counted = countContent((r) => r.location === id);
      expect(text).toContain(`${name} ★ ${counted.rating_value.toFixed(1)} average · ${counted.review_count} reviews`);
    }
  });

  it('names its location on each review card, linked to its page, here and on the search page; a review with none names none', async () => {
    const names = new Map(LOCATIONS.map((l) => [l.id, l.name]));
    /** Each card's id and the location its tags name (the link and its words), on a page of cards. */
    const cardLocations = (html: string) =>
      new Map([...html.matchAll(/<article[^>]* id="(r-\d+)"[\s\S]*?<\/article>/g)].map((m) => [m[1]!, /<li>Location: <a href="\/locations\/([^/]+)\/"><bdi>([^<]+)<\/bdi><\/a><\/li>/.exec(m[0])?.slice(1, 3).join(' ')]));
    const expected = (id: string) => {
      const location = contentReviews.find((r) => r.id === id)!.location;
      return location === undefined ? undefined : `${location} ${names.get(location)}`;
    };
    const page = cardLocations(await (await get('/locations/springfield/')).text());
    const search = cardLocations(await (await get('/search/?limit=50', { headers: { accept: 'text/html' } })).text());
    for (const cards of [page, search]) {
      expect(cards.size).toBeGreaterThan(0);
      for (const [id, named] of cards) expect(named, id).toBe(expected(id));
    }
    // The search page lists reviews of both locations and of none.
    expect(new Set([...search.values()].map((named) => named?.split(' ')[0]))).toEqual(new Set([...LOCATIONS.map((l) => l.id), undefined]));
  });

  it("shows the location's address, histogram and technicians", async () => {
    const text = await textOf('/locations/springfield/');
    expect(text).toContain('12 Elm St, Springfield, IL 62701');
    expect(text).toContain('Areas served: Springfield, Rochester');
    const html = await (await get('/locations/springfield/')).text();
    expect(html).toContain('href="/search/?location=springfield&amp;rating=5"');
    expect(html).toMatch(/<h2 id="technicians-title">Technicians<\/h2>/);
  });
});

describe('the feeds of each location', () => {
  it.each(['springfield', 'chatham'])('%s has an Atom feed and a JSON Feed of exactly its reviews, listed in /feeds.json and served as WebSub topics', async (id) => {
    const json = await get(`/feeds/locations/${id}.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('link')).toContain('rel="hub"');
    const feed = (await json.json()) as { items: { id: string }[] };
    expect(feed.items.map((item) => item.id.slice(item.id.lastIndexOf('#') + 1))).toEqual(idsOf(id));
    const atom = await get(`/feeds/locations/${id}.xml`);
    expect(atom.status).toBe(200);
    expect(atom.headers.get('content-type')).toContain('application/atom+xml');
    const index = await getJson<{ feeds: { kind: string; key: string | null; atom_url: string; json_url: string; page_url: string }[] }>('/feeds.json');
    expect(index.feeds.filter((f) => f.kind === 'location' && f.key === id)).toEqual([
      expect.objectContaining({ atom_url: `${PUBLIC}/feeds/locations/${id}.xml`, json_url: `${PUBLIC}/feeds/locations/${id}.json`, page_url: `${PUBLIC}/locations/${id}/` }),
    ]);
    // The hub takes a subscription to each (an unknown topic is refused with 400).
    for (const format of ['xml', 'json']) {
      const callback = `/sub/${id}.${format}`;
      const subscribed = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': `${PUBLIC}/feeds/locations/${id}.${format}`, 'hub.callback': sub.callback(callback) });
      expect(subscribed.status).toBe(202);
      await sub.waitForVerification(callback);
    }
    const unknown = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': `${PUBLIC}/feeds/locations/nampa.xml`, 'hub.callback': sub.callback('/sub/nampa') });
    expect(unknown.status).toBe(400);
  });
});

describe('JSON-LD of a business with locations', () => {
  const jsonLdOf = async (p: string) =>
    [...(await (await get(p)).text()).matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

  it('describes each location as a department of the business, with its address and telephone when it has them', async () => {
    const business = (await jsonLdOf('/')).find((o) => o['@id'] === `${PUBLIC}/#business`)!;
    expect(business.department).toEqual([
      {
        '@type': 'HomeAndConstructionBusiness',
        '@id': `${PUBLIC}/locations/springfield/#location`,
        name: 'Springfield shop',
        url: `${PUBLIC}/locations/springfield/`,
        telephone: '+1-555-010-2000',
        address: { '@type': 'PostalAddress', streetAddress: '12 Elm St', addressLocality: 'Springfield', addressRegion: 'IL', postalCode: '62701', addressCountry: 'US' },
        areaServed: [{ '@type': 'Place', name: 'Springfield' }, { '@type': 'Place', name: 'Rochester' }],
        parentOrganization: { '@id': `${PUBLIC}/#business` },
      },
      {
        '@type': 'HomeAndConstructionBusiness',
        '@id': `${PUBLIC}/locations/chatham/#location`,
        name: 'Chatham shop',
        url: `${PUBLIC}/locations/chatham/`,
        telephone: '+1-555-010-3000',
        parentOrganization: { '@id': `${PUBLIC}/#business` },
      },
    ]);
    const page = await jsonLdOf('/locations/chatham/');
    expect(page).toContainEqual(expect.objectContaining({ '@context': 'https://schema.org', '@id': `${PUBLIC}/locations/chatham/#location`, parentOrganization: { '@id': `${PUBLIC}/#business` } }));
  });
});

describe('a change of one review', () => {
  it("notifies the subscribers of its location's feeds, and not the other location's", async () => {
    const before = { springfield: sub.notifications('/sub/springfield.xml').length, chatham: sub.notifications('/sub/chatham.xml').length };
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8')) as (ContentReview & { text: string })[];
    reviews.find((r) => r.id === 'r-0006')!.text += ' Edited later: the part came the next day.';
    await writeFile(file, JSON.stringify(reviews));
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
    const form = new URLSearchParams({ 'hub.mode': 'publish' });
    for (const topic of createServiceUrls(PUBLIC).topics()) form.append('hub.url', topic);
    expect((await hubPost(form)).status).toBe(202);
    const notified = await sub.waitForNotification('/sub/chatham.xml', () => true, 30_000);
    expect(notified.body.toString()).toContain('Edited later');
    await sub.waitForNotification('/sub/chatham.json', () => true, 30_000);
    await service.hub.drained();
    expect(sub.notifications('/sub/chatham.xml').length).toBe(before.chatham + 1);
    expect(sub.notifications('/sub/springfield.xml').length).toBe(before.springfield);
  }, TIMEOUT);
});
