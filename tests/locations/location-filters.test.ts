/**
 * The location filter beyond search (issue 43 item 2): `GET /api/reviews/since/{date}?location=`, MCP
 * `get_reviews_since`, the technician ranking (REST and MCP) and `get_rating_summary`, on a real build of
 * the two-location content served by the real sidecar, over HTTP and through the MCP SDK client. Every
 * answer is checked against an independent count of the content files; a business without locations
 * answers as before.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../mcp/mcp-fixture.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { countContentReviews, listLocationIds, LOCATIONS, writeTwoLocationContent, type ContentReview } from './two-locations.ts';

const PUBLIC = 'https://reviews.example.com';
const TIMEOUT = 240_000;
const IDS = LOCATIONS.map((l) => l.id);
/** A date each build prerenders (checked below), and one before every review, answered live without a location. */
const PRERENDERED = '2025-02-14';
const PLAIN_PRERENDERED = '2025-02-20';
const OLD = '2001-01-01';
const KNOWN = 'known locations: springfield, chatham';
/** The technicians each verified review mentions, read off the content files: listed, or named in the text by name or alias. */
const MENTIONS: Record<string, string[]> = { 'r-0001': ['Michael Reyes'], 'r-0003': ['Dana Whitfield'], 'r-0005': ['Al Okafor', 'Dana Whitfield'], 'r-0007': ['Michael Reyes'] };
/** The tools that take `location`, for a business with locations. */
const FILTERING_TOOLS = ['search_reviews', 'get_reviews_since', 'rank_technicians', 'get_rating_summary'];

type Service = Awaited<ReturnType<typeof startTestSidecar>>;
type Listed = { reviews: { id: string; location?: string }[]; count: number; total: number };
type Ranking = { filters: Record<string, string>; reviews: number; technicians: { technician: string; reviews: number; mean_rating: number; filter: Record<string, string> }[] };
type Stats = { count: number; mean: number | null; distribution: Record<string, number> };

let located: Service;
let plain: Service;
let snapshotDates: string[];
let plainSnapshotDates: string[];
let contentReviews: ContentReview[];
let client: Client;

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'location-filters-'));
  const contentDir = path.join(work, 'content');
  contentReviews = await writeTwoLocationContent(contentDir);
  const [built, plainBuilt] = await Promise.all([
    buildTestSite({ contentDir, outDir: path.join(work, 'dist'), publicUrl: PUBLIC }),
    buildTestSite({ contentDir: SMALL_CONTENT, publicUrl: PUBLIC }),
  ]);
  const snapshotsOf = (files: Record<string, unknown>) => Object.keys(files).filter((p) => p.startsWith('/api/reviews/since/')).map((p) => p.slice(-10));
  snapshotDates = snapshotsOf(built.manifest.files);
  plainSnapshotDates = snapshotsOf(plainBuilt.manifest.files);
  located = await startTestSidecar({ distDir: built.distDir, publicUrl: PUBLIC, env: { DATA_DIR: path.join(work, 'data') } });
  plain = await startTestSidecar({ distDir: plainBuilt.distDir, publicUrl: PUBLIC, env: { DATA_DIR: path.join(path.dirname(plainBuilt.distDir), 'data') } });
  ({ client } = await connectClient(new URL(`${located.url}/mcp`)));
}, TIMEOUT);

afterAll(async () => {
  await client?.close();
  await located?.close();
  await plain?.close();
});

const get = (service: Service, p: string, headers: Record<string, string> = {}) => fetch(`${service.url}${p}`, { headers });
const getJson = async <T>(service: Service, p: string) => {
  const response = await get(service, p);
  expect(response.status, p).toBe(200);
  return (await response.json()) as T;
};
const verified = (filter: (r: ContentReview) => boolean) => contentReviews.filter((r) => r.verified && filter(r));
/** The ids of a location's reviews dated on or after `date`, from the content files, newest first. */
const idsSince = (location: string, date: string) => listLocationIds(contentReviews, location).filter((id) => contentReviews.find((r) => r.id === id)!.date >= date);

async function callTool(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

async function callToolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}

describe('GET /api/reviews/since/{date}?location=', () => {
  it(`has ${PRERENDERED} prerendered and ${OLD} not, so both paths of the static handler are asked`, () => {
    expect(snapshotDates).toContain(PRERENDERED);
    expect(snapshotDates).not.toContain(OLD);
  });

  it.each(IDS.flatMap((id) => [PRERENDERED, OLD].map((date) => [id, date])))('lists exactly the reviews of %s dated on or after %s, as the unfiltered list has them', async (id, date) => {
    const body = await getJson<Listed>(located, `/api/reviews/since/${date}?location=${id}`);
    const expected = idsSince(id, date);
    expect(expected.length).toBeGreaterThan(0);
    expect(body.reviews.map((r) => r.id)).toEqual(expected);
    expect([body.count, body.total]).toEqual([expected.length, expected.length]);
    // The same reviews, byte for byte as JSON values, and the same order as the unfiltered answer.
    const all = await getJson<Listed>(located, `/api/reviews/since/${date}`);
    expect(body.reviews).toEqual(all.reviews.filter((r) => r.location === id));
    expect(Object.keys(body)).toEqual(['reviews', 'count', 'total']);
  });

  it('revalidates with If-None-Match (304), with an ETag of its own, for a prerendered date and an old one', async () => {
    for (const date of [PRERENDERED, OLD]) {
      const p = `/api/reviews/since/${date}?location=chatham`;
      const first = await get(located, p);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"/);
      expect(first.headers.get('last-modified')).toBeTruthy();
      expect(etag).not.toBe((await get(located, `/api/reviews/since/${date}`)).headers.get('etag'));
      const again = await get(located, p, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect((await get(located, p, { 'If-None-Match': '"other"' })).status).toBe(200);
    }
  });

  it('ignores any other query parameter, as the since path always did', async () => {
    const bare = await get(located, `/api/reviews/since/${PRERENDERED}?location=springfield`);
    const extra = await get(located, `/api/reviews/since/${PRERENDERED}?rating=1&location=springfield&limit=1`);
    expect(extra.headers.get('etag')).toBe(bare.headers.get('etag'));
    expect(await extra.text()).toBe(await bare.text());
  });

  it.each([
    ['?location=nampa', [{ path: ['location'], code: 'unknown_location', message: `no location has the id "nampa"; ${KNOWN}` }]],
    ['?location=Springfield', [{ path: ['location'], code: 'unknown_location', message: `no location has the id "Springfield"; ${KNOWN}` }]],
    ['?location=', [{ path: ['location'], code: 'too_small', message: 'must not be empty' }]],
    ['?location=chatham&location=springfield', [{ path: ['location'], code: 'repeated_parameter', message: 'must be given at most once (given 2 times)' }]],
  ])('answers %s with a 400 whose issues say what is wrong', async (query, issues) => {
    for (const date of [PRERENDERED, OLD]) {
      const response = await get(located, `/api/reviews/since/${date}${query}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_parameters', message: 'The since parameters are not valid; see issues.', issues });
    }
  });

  it('reports a bad date and an unknown location together', async () => {
    const response = await get(located, '/api/reviews/since/2025-02-30?location=nampa');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; issues: { path: string[] }[] };
    expect(body.error).toBe('invalid_date');
    expect(body.issues.map((i) => i.path[0])).toEqual(['date', 'location']);
  });
});

describe('MCP get_reviews_since with location', () => {
  it.each(IDS)('pages through exactly the reviews of %s, one per page, with cursors', async (id) => {
    for (const date of [PRERENDERED, OLD]) {
      const expected = idsSince(id, date);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page <= expected.length; page++) {
        const answer = (await callTool('get_reviews_since', { date, location: id, limit: 1, ...(cursor ? { cursor } : {}) })) as Listed & { next_cursor: string | null };
        expect(answer.total).toBe(expected.length);
        seen.push(...answer.reviews.map((r) => r.id));
        if (answer.next_cursor === null) break;
        cursor = answer.next_cursor;
      }
      expect(seen).toEqual(expected);
    }
    expect(idsSince(id, OLD).length).toBeGreaterThan(1);
  });

  it("refuses a cursor issued for another location, or without one, and says so", async () => {
    const first = (await callTool('get_reviews_since', { date: OLD, location: 'springfield', limit: 1 })) as { next_cursor: string };
    for (const args of [{ location: 'chatham' }, {}]) {
      const text = await callToolError('get_reviews_since', { date: OLD, limit: 1, cursor: first.next_cursor, ...args });
      expect(text).toContain('cursor: was issued for other filters');
    }
  });

  it('names the location in an empty answer, and refuses an unknown one naming the known ids', async () => {
    const empty = await callTool('get_reviews_since', { date: '2025-02-20', location: 'chatham' });
    expect(empty).toMatchObject({ reviews: [], total: 0, message: 'No review of location chatham is dated on or after 2025-02-20; its newest review is from 2025-02-14.' });
    expect(await callToolError('get_reviews_since', { date: OLD, location: 'nampa' })).toContain(`location: no location has the id "nampa"; ${KNOWN}`);
  });
});

/** A ranking's reviews per technician and their mean rating, counted from the content files and MENTIONS. */
function countMentions(location: string): Record<string, [number, number]> {
  const byTechnician = new Map<string, number[]>();
  for (const review of verified((r) => r.location === location)) {
    for (const name of MENTIONS[review.id] ?? []) byTechnician.set(name, [...(byTechnician.get(name) ?? []), review.rating]);
  }
  return Object.fromEntries([...byTechnician].map(([name, ratings]) => [name, [ratings.length, Math.round((ratings.reduce((s, r) => s + r, 0) / ratings.length) * 100) / 100]]));
}

describe('the technician ranking at one location', () => {
  it.each(IDS)('GET /api/technicians/rank and MCP rank_technicians rank on exactly the reviews of %s', async (id) => {
    const rest = await getJson<Ranking>(located, `/api/technicians/rank?location=${id}`);
    expect(rest.reviews).toBe(countContentReviews(contentReviews, (r) => r.location === id).review_count);
    expect(Object.fromEntries(rest.technicians.map((t) => [t.technician, [t.reviews, t.mean_rating]]))).toEqual(countMentions(id));
    expect(rest.filters).toEqual({ location: id });
    for (const t of rest.technicians) expect(t.filter).toEqual({ location: id, mentions_technician: t.technician });
    expect(await callTool('rank_technicians', { location: id })).toEqual(rest);
  });

  it('counts differently without the filter: Michael Reyes is mentioned once at springfield, twice in all', async () => {
    const all = await getJson<Ranking>(located, '/api/technicians/rank');
    const at = await getJson<Ranking>(located, '/api/technicians/rank?location=springfield');
    const reviewsOf = (ranking: Ranking, name: string) => ranking.technicians.find((t) => t.technician === name)?.reviews;
    expect([reviewsOf(all, 'Michael Reyes'), reviewsOf(at, 'Michael Reyes')]).toEqual([2, 1]);
  });

  it('combines the location with the other filters (AND)', async () => {
    const rest = await getJson<Ranking>(located, '/api/technicians/rank?location=springfield&mentions_service=water-heater');
    expect(rest.reviews).toBe(1);
    expect(rest.technicians.map((t) => [t.technician, t.reviews])).toEqual([['Dana Whitfield', 1]]);
    expect(await callTool('rank_technicians', { location: 'springfield', mentions_service: 'Water heaters' })).toEqual(rest);
  });

  it('refuses an unknown location naming the known ids, and lists location among the parameters', async () => {
    const response = await get(located, '/api/technicians/rank?location=nampa&sort=x');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { issues: unknown[] }).issues).toEqual([
      { path: ['sort'], code: 'unrecognized_parameter', message: 'is not a search parameter; the parameters are mentions_service, aspect, since, until, location' },
      { path: ['location'], code: 'unknown_location', message: `no location has the id "nampa"; ${KNOWN}` },
    ]);
    expect(await callToolError('rank_technicians', { location: 'nampa' })).toContain(`location: no location has the id "nampa"; ${KNOWN}`);
  });
});

describe('MCP get_rating_summary with location', () => {
  it.each(IDS)('counts only the reviews of %s, overall, per month and per technician', async (id) => {
    const summary = (await callTool('get_rating_summary', { location: id })) as { location: string; overall: Stats; by_period: (Stats & { period: string })[]; by_technician: (Stats & { technician: string })[] };
    const counted = countContentReviews(contentReviews, (r) => r.location === id);
    expect(summary.location).toBe(id);
    expect(summary.overall).toEqual({ count: counted.review_count, mean: counted.rating_value, distribution: counted.distribution });
    const months = new Map<string, number>();
    for (const r of verified((r) => r.location === id)) months.set(r.date.slice(0, 7), (months.get(r.date.slice(0, 7)) ?? 0) + 1);
    expect(Object.fromEntries(summary.by_period.filter((p) => p.count > 0).map((p) => [p.period, p.count]))).toEqual(Object.fromEntries(months));
    const mentions = countMentions(id);
    for (const t of summary.by_technician) expect([t.technician, t.count]).toEqual([t.technician, mentions[t.technician]?.[0] ?? 0]);
  });

  it('counts every review without it, and refuses an unknown location naming the known ids', async () => {
    const all = (await callTool('get_rating_summary', {})) as { overall: Stats };
    expect(all.overall.count).toBe(countContentReviews(contentReviews, () => true).review_count);
    expect(all).not.toHaveProperty('location');
    expect(await callToolError('get_rating_summary', { location: 'nampa', since: '2025-01-01' })).toContain(`location: no location has the id "nampa"; ${KNOWN}`);
  });
});

describe('tools/list of a business with locations', () => {
  it('lists location in every tool that filters, within the 12 KB budget', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(Object.hasOwn(tool.inputSchema.properties ?? {}, 'location'), tool.name).toBe(FILTERING_TOOLS.includes(tool.name));
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    console.log(`tools/list with locations (small content): ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(12 * 1024);
  });
});

describe('a business without locations', () => {
  it('lists no location argument in any tool', async () => {
    const { client: plainClient } = await connectClient(new URL(`${plain.url}/mcp`));
    try {
      const { tools } = await plainClient.listTools();
      expect(tools.filter((t) => Object.hasOwn(t.inputSchema.properties ?? {}, 'location')).map((t) => t.name)).toEqual([]);
      const since = await plainClient.callTool({ name: 'get_reviews_since', arguments: { date: OLD, location: 'springfield' } });
      expect(since.isError).toBe(true);
      expect((since.content as { text: string }[])[0]!.text).toContain('no location has the id "springfield"; this business lists no locations');
    } finally {
      await plainClient.close();
    }
  });

  it('serves since as before, other parameters ignored, and refuses a location saying it has none', async () => {
    expect([plainSnapshotDates.includes(PLAIN_PRERENDERED), plainSnapshotDates.includes(OLD)]).toEqual([true, false]);
    for (const date of [PLAIN_PRERENDERED, OLD]) {
      const bare = await get(plain, `/api/reviews/since/${date}`);
      const extra = await get(plain, `/api/reviews/since/${date}?rating=1`);
      expect([extra.status, extra.headers.get('etag'), await extra.text()]).toEqual([200, bare.headers.get('etag'), await bare.text()]);
      const located = await get(plain, `/api/reviews/since/${date}?location=springfield`);
      expect(located.status).toBe(400);
      expect(((await located.json()) as { issues: unknown[] }).issues).toEqual([{ path: ['location'], code: 'unknown_location', message: 'no location has the id "springfield"; this business lists no locations' }]);
    }
  });

  it("leaves location out of the ranking's list of parameters", async () => {
    const response = await get(plain, '/api/technicians/rank?sort=x');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { issues: { message: string }[] }).issues[0]!.message).toBe('is not a search parameter; the parameters are mentions_service, aspect, since, until');
  });
});
