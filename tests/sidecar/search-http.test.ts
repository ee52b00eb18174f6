import { existsSync } from 'node:fs';
import type { PublishedBusiness, PublishedReview } from '../../core/schemas/published.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite, DEMO_CONTENT, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { header, rawRequest } from '../helpers/http.ts';
import { listed, readLogEntries } from '../helpers/listed-reviews.ts';
import type { ReviewLogEntry } from '../../core/schemas/published.ts';

type Review = PublishedReview;
type Business = PublishedBusiness;

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let reviews: Review[];
let business: Business;
let aspectIds: string[];
let logEntries: Map<string, ReviewLogEntry>;

beforeAll(async () => {
  const contentDir = existsSync(`${DEMO_CONTENT}/business.json`) ? DEMO_CONTENT : SMALL_CONTENT;
  const { distDir } = await buildTestSite({ contentDir });
  sidecar = await startTestSidecar({ distDir });
  const dataset = JSON.parse((await rawRequest(`${sidecar.url}/reviews.json`)).body.toString());
  reviews = dataset.reviews;
  business = dataset.business;
  const insights = JSON.parse((await rawRequest(`${sidecar.url}/insights.json`)).body.toString());
  aspectIds = insights.aspects.map((a: { id: string }) => a.id);
  logEntries = await readLogEntries(sidecar.url, sidecar.config.publicUrl, reviews.map((r) => r.id));
});
afterAll(() => sidecar?.close());

async function search(params: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const res = await rawRequest(`${sidecar.url}/api/reviews/search?${qs}`);
  return { status: res.status, res, body: JSON.parse(res.body.toString()) };
}

/** Deliberately naive: the contract's rules written as plainly as possible. */
function oracle(p: Record<string, string | number>) {
  const tech = p.mentions_technician === undefined ? undefined : business.technicians.find((t) =>
    [t.name, ...t.aliases].some((n) => n.toLowerCase() === String(p.mentions_technician).trim().toLowerCase()))?.name;
  const aspect = p.aspect === undefined ? undefined : String(p.aspect).trim().toLowerCase();
  const sentiment = p.aspect_sentiment;
  const query = p.query === undefined ? undefined : String(p.query).toLowerCase();
  const inOwnWords = (r: Review) => r.text.toLowerCase().includes(query!) || (r.title ?? '').toLowerCase().includes(query!);
  // A review is found by the translation its source gave too (issue 43 item 3), and then says so.
  const inTranslation = (r: Review) => r.translation !== undefined && (r.translation.text.toLowerCase().includes(query!) || (r.translation.title ?? '').toLowerCase().includes(query!));
  const matches = reviews
    .filter((r) => p.rating === undefined || r.rating === Number(p.rating))
    .filter((r) => p.min_rating === undefined || r.rating >= Number(p.min_rating))
    .filter((r) => p.since === undefined || r.date >= String(p.since))
    .filter((r) => p.until === undefined || r.date <= String(p.until))
    .filter((r) => query === undefined || inOwnWords(r) || inTranslation(r))
    .filter((r) => tech === undefined || r.technicians.includes(tech))
    .filter((r) => p.mentions_service === undefined || r.services.includes(String(p.mentions_service)))
    .filter((r) => (aspect === undefined && sentiment === undefined) || r.aspects.some((a) =>
      (aspect === undefined || a.aspect === aspect) && (sentiment === undefined || a.polarity === sentiment)))
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1));
  const limit = p.limit === undefined ? 20 : Number(p.limit);
  const shown = listed(matches.slice(0, limit), logEntries).map((r) => (query === undefined || inOwnWords(r) ? r : { ...r, matched_in: 'translation' }));
  return { reviews: shown, count: Math.min(limit, matches.length), total: matches.length, limit };
}

function seeded(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('GET /api/reviews/search', () => {
  it('agrees with a naive oracle over many parameter combinations', async () => {
    const random = seeded(7);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const dates = reviews.map((r) => r.date);
    const words = ['on time', 'price', 'the', 'leak', 'clean', 'A', 'furnace', 'thermostat', 'rude', 'great', 'zzz-nothing'];
    let byTranslation = 0;
    for (let i = 0; i < 120; i++) {
      const p: Record<string, string | number> = {};
      if (random() < 0.3) p.rating = 1 + Math.floor(random() * 5);
      if (random() < 0.2) p.min_rating = pick([1, 2.5, 3, 4, 4.5, 5]);
      if (random() < 0.3) p.since = pick(dates);
      if (random() < 0.3) p.until = pick(dates);
      if (p.since !== undefined && p.until !== undefined && p.since > p.until) [p.since, p.until] = [p.until, p.since];
      if (random() < 0.3) p.query = pick(words);
      if (random() < 0.25) {
        const t = pick(business.technicians);
        p.mentions_technician = pick([t.name, ...t.aliases]).toUpperCase();
      }
      if (random() < 0.25) p.mentions_service = pick(business.services).id;
      if (random() < 0.3) p.aspect = pick([...aspectIds, pick(aspectIds).toUpperCase()]);
      if (random() < 0.3) p.aspect_sentiment = pick(['positive', 'neutral', 'negative']);
      if (random() < 0.5) p.limit = pick([1, 2, 5, 20, 50, 100]);
      const { status, body } = await search(p);
      expect(status, JSON.stringify(p)).toBe(200);
      const { next_cursor: nextCursor, ...page } = body;
      const expected = oracle(p);
      expect(page, JSON.stringify(p)).toEqual(expected);
      expect(nextCursor === null, JSON.stringify(p)).toBe(expected.total <= expected.limit);
      byTranslation += expected.reviews.filter((r) => 'matched_in' in r).length;
    }
    // The demo's Spanish reviews are found by English words of their translation.
    expect(byTranslation).toBeGreaterThan(0);
  });

  it('pages through every match with next_cursor and Link rel="next", as the oracle lists them', async () => {
    const random = seeded(11);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const sets: Record<string, string | number>[] = [{}, { min_rating: 4 }, { aspect_sentiment: 'negative' }, { query: 'the' }];
    for (let i = 0; i < 6; i++) sets.push({ rating: 1 + Math.floor(random() * 5), ...(random() < 0.5 ? { since: pick(reviews.map((r) => r.date)) } : {}) });
    for (const p of sets) {
      const all = oracle({ ...p, limit: 1_000_000 }).reviews;
      const limit = pick([7, 20, 100]);
      const seen: Review[] = [];
      let url: string | undefined = `${sidecar.url}/api/reviews/search?${new URLSearchParams(Object.entries({ ...p, limit }).map(([k, v]) => [k, String(v)]))}`;
      for (let pages = 0; url !== undefined; pages++) {
        expect(pages, JSON.stringify(p)).toBeLessThanOrEqual(Math.ceil(all.length / limit));
        const res = await rawRequest(url);
        expect(res.status, url).toBe(200);
        const body = JSON.parse(res.body.toString());
        seen.push(...body.reviews);
        const link = header(res, 'link');
        if (body.next_cursor === null) {
          expect(link).toBeUndefined();
          url = undefined;
        } else {
          const next = /^<https:\/\/reviews\.example\.com(\/api\/reviews\/search\?[^>]+)>; rel="next"$/.exec(link ?? '');
          expect(next, link).not.toBeNull();
          expect(new URL(next![1]!, 'http://x').searchParams.get('cursor')).toBe(body.next_cursor);
          url = `${sidecar.url}${next![1]}`;
        }
      }
      expect(seen.map((r) => r.id), JSON.stringify(p)).toEqual(all.map((r) => r.id));
    }
  });

  it('refuses a cursor issued for other filters, and one it never issued', async () => {
    const first = await search({ limit: 1 });
    const other = await search({ rating: 5, cursor: first.body.next_cursor });
    expect(other.status).toBe(400);
    expect(other.body.issues).toMatchObject([{ path: ['cursor'], code: 'invalid_cursor' }]);
    expect((await search({ cursor: 'not-a-cursor' })).status).toBe(400);
  });

  it('defaults the limit to 20 and caps nothing silently: total counts every match', async () => {
    const { body } = await search({});
    expect(body.limit).toBe(20);
    expect(body.count).toBe(Math.min(20, reviews.length));
    expect(body.total).toBe(reviews.length);
  });

  it('answers a HEAD and a conditional GET', async () => {
    const { res } = await search({ rating: 5 });
    const again = await rawRequest(`${sidecar.url}/api/reviews/search?rating=5`, { headers: { 'If-None-Match': header(res, 'etag')! } });
    expect(again.status).toBe(304);
    expect((await rawRequest(`${sidecar.url}/api/reviews/search?rating=5`, { method: 'HEAD' })).status).toBe(200);
  });

  it.each([
    ['rating=0', 'rating'],
    ['rating=6', 'rating'],
    ['rating=2.5', 'rating'],
    ['rating=abc', 'rating'],
    ['rating=', 'rating'],
    ['min_rating=0.5', 'min_rating'],
    ['min_rating=5.5', 'min_rating'],
    ['min_rating=x', 'min_rating'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=-1', 'limit'],
    ['since=2024-02-30', 'since'],
    ['until=2024-2-1', 'until'],
    ['since=2025-02-01&until=2025-01-01', 'since'],
    ['mentions_technician=Nobody%20Known', 'mentions_technician'],
    ['mentions_service=not-a-service', 'mentions_service'],
    ['aspect=not-an-aspect', 'aspect'],
    ['aspect=', 'aspect'],
    ['aspect_sentiment=mixed', 'aspect_sentiment'],
    ['aspect=price&aspect=speed', 'aspect'],
    ['foo=bar', 'foo'],
    ['rating=5&rating=4', 'rating'],
    [`query=${'x'.repeat(201)}`, 'query'],
  ])('answers %s with 400 and an issue for %s', async (qs, param) => {
    const res = await rawRequest(`${sidecar.url}/api/reviews/search?${qs}`);
    expect(res.status).toBe(400);
    expect(header(res, 'content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body.toString());
    expect(body.error).toBeTypeOf('string');
    expect(body.message).toBeTypeOf('string');
    expect(body.issues.map((i: { path: string[] }) => i.path[0])).toContain(param);
    for (const issue of body.issues) expect(issue).toMatchObject({ message: expect.any(String), code: expect.any(String) });
  });

  it('reports every problem at once', async () => {
    const res = await rawRequest(`${sidecar.url}/api/reviews/search?rating=9&limit=0&bogus=1`);
    const paths = JSON.parse(res.body.toString()).issues.map((i: { path: string[] }) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(['rating', 'limit', 'bogus']));
  });

  it('names the aspects of /insights.json when the aspect is unknown', async () => {
    const res = await rawRequest(`${sidecar.url}/api/reviews/search?aspect=vibes`);
    const [issue] = JSON.parse(res.body.toString()).issues;
    expect(issue).toMatchObject({ path: ['aspect'], code: 'unknown_aspect' });
    expect(issue.message).toBe(`no aspect has the id "vibes"; known aspects: ${aspectIds.join(', ')}`);
    expect(aspectIds.length).toBeGreaterThanOrEqual(10);
  });
});
