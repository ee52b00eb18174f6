/**
 * /insights.json as the build publishes it and the sidecar serves it: every figure recounted
 * naively from the served /reviews.json, every cited review published, the same bytes from two
 * builds, the MCP get_insights tool answering the same sections; and the build refusing invalid
 * insights content with the file and field of each problem.
 */
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsightsSchema, type Insights } from '../../core/schemas/insights.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { buildSite } from '../../scripts/build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, DEMO_CONTENT, SMALL_CONTENT } from '../helpers/site-build.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let distDir: string;
let dataset: ReviewsDataset;
let insights: Insights;
let insightsBytes: Buffer;

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ contentDir: DEMO_CONTENT, publicUrl: PUBLIC }));
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
  dataset = await (await fetch(`${sidecar.url}/reviews.json`)).json();
  const res = await fetch(`${sidecar.url}/insights.json`);
  insightsBytes = Buffer.from(await res.arrayBuffer());
  insights = JSON.parse(insightsBytes.toString('utf8'));
});
afterAll(() => sidecar?.close());

const round2 = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: number[]) => (xs.length === 0 ? null : round2(xs.reduce((a, b) => a + b, 0) / xs.length));

/** Per aspect id: how many of `reviews` mention it, and with which polarity. Nothing shared with core. */
function countAspects(reviews: ReviewsDataset['reviews']) {
  const counts = new Map<string, { mentions: number; positive: number; neutral: number; negative: number }>();
  for (const review of reviews) {
    for (const { aspect, polarity } of review.aspects) {
      const c = counts.get(aspect) ?? { mentions: 0, positive: 0, neutral: 0, negative: 0 };
      c.mentions++;
      c[polarity]++;
      counts.set(aspect, c);
    }
  }
  return counts;
}

describe('the served /insights.json', () => {
  it('is the full document, valid against InsightsSchema, over every published review', () => {
    expect(InsightsSchema.safeParse(insights).success).toBe(true);
    expect(Object.keys(insights)).toEqual(['basis', 'aspects', 'entities', 'topics', 'faq', 'responses', 'summary', 'jobs']);
    const dates = dataset.reviews.map((r) => r.date).sort();
    expect(insights.basis).toMatchObject({ review_count: dataset.reviews.length, first_date: dates[0], last_date: dates.at(-1) });
    expect(insights.aspects.length).toBeGreaterThanOrEqual(10);
    expect(insights.topics.length).toBeGreaterThan(0);
    expect(insights.faq.length).toBeGreaterThan(0);
    expect(insights.summary.text).toContain(String(dataset.reviews.length));
  });

  it('counts each aspect exactly as the published reviews carry it', () => {
    const counts = countAspects(dataset.reviews);
    for (const aspect of insights.aspects) {
      const c = counts.get(aspect.id) ?? { mentions: 0, positive: 0, neutral: 0, negative: 0 };
      expect([aspect.mentions, aspect.positive, aspect.neutral, aspect.negative], aspect.id).toEqual([c.mentions, c.positive, c.neutral, c.negative]);
    }
    // Every aspect a review carries is one of the document's aspect set.
    expect([...counts.keys()].every((id) => insights.aspects.some((a) => a.id === id))).toBe(true);
    expect(insights.aspects.reduce((sum, a) => sum + a.mentions, 0)).toBeGreaterThan(dataset.reviews.length / 2);
  });

  it('counts technicians, services and areas as an independent count over /reviews.json does', () => {
    const { business, reviews } = dataset;
    const kinds = [
      ['technicians', business.technicians.map((t) => t.name), (r: (typeof reviews)[number], name: string) => r.technicians.includes(name)],
      ['services', business.services.map((s) => s.id), (r: (typeof reviews)[number], id: string) => r.services.includes(id)],
      ['service_areas', business.service_areas, (r: (typeof reviews)[number], area: string) => r.service_area === area],
    ] as const;
    for (const [kind, keys, mentions] of kinds) {
      const entities = insights.entities[kind];
      expect(entities.length, kind).toBe(keys.length);
      for (const key of keys) {
        const entity = entities.find((e) => (kind === 'services' ? e.id : e.name) === key);
        const own = reviews.filter((r) => mentions(r, key));
        expect(entity, `${kind} ${key}`).toBeDefined();
        expect([entity!.reviews, entity!.average_rating], `${kind} ${key}`).toEqual([own.length, mean(own.map((r) => r.rating))]);
        expect(entity!.recent_review_ids, `${kind} ${key}`).toEqual(own.slice(0, 5).map((r) => r.id));
        const profile = countAspects(own);
        for (const a of entity!.aspects) {
          expect([a.mentions, a.positive, a.neutral, a.negative], `${kind} ${key} ${a.aspect}`).toEqual(
            ['mentions', 'positive', 'neutral', 'negative'].map((k) => profile.get(a.aspect)![k as 'mentions']),
          );
        }
        expect(entity!.aspects.length, `${kind} ${key}`).toBe(profile.size);
      }
    }
    expect(insights.entities.technicians.some((t) => t.reviews > 20)).toBe(true);
  });

  it('cites only reviews that /reviews.json publishes, and its quotes are their words', () => {
    const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
    const cited = [
      ...insights.aspects.flatMap((a) => a.quotes.map((q) => q.review_id)),
      ...Object.values(insights.entities).flatMap((list) => list.flatMap((e) => e.recent_review_ids)),
      ...insights.topics.flatMap((t) => t.review_ids),
      ...insights.faq.flatMap((f) => f.review_ids),
      ...insights.summary.highlights.flatMap((h) => h.review_ids),
    ];
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((id) => !byId.has(id))).toEqual([]);
    for (const quote of insights.aspects.flatMap((a) => a.quotes)) {
      const review = byId.get(quote.review_id)!;
      expect(`${review.title ?? ''}\n${review.text}`, quote.review_id).toContain(quote.text);
      expect([quote.date, quote.rating]).toEqual([review.date, review.rating]);
    }
  });

  it('gives filters that list, through the search API, exactly the reviews behind each figure', async () => {
    const total = async (filter: Record<string, string>) => {
      const res = await fetch(`${sidecar.url}/api/reviews/search?${new URLSearchParams({ ...filter, limit: '1' })}`);
      expect(res.status, JSON.stringify(filter)).toBe(200);
      return ((await res.json()) as { total: number }).total;
    };
    for (const aspect of insights.aspects) {
      expect(await total(aspect.filter), aspect.id).toBe(aspect.mentions);
      for (const polarity of ['positive', 'neutral', 'negative'] as const) {
        expect(await total({ ...aspect.filter, aspect_sentiment: polarity }), `${aspect.id} ${polarity}`).toBe(aspect[polarity]);
      }
    }
    for (const entity of [...insights.entities.technicians, ...insights.entities.services]) {
      expect(await total(entity.filter!), entity.name).toBe(entity.reviews);
    }
    const anyNegative = dataset.reviews.filter((r) => r.aspects.some((a) => a.polarity === 'negative')).length;
    expect(await total({ aspect_sentiment: 'negative' })).toBe(anyNegative);
  });

  it('is the same bytes from a second build of the same content', async () => {
    const again = await buildTestSite({ contentDir: DEMO_CONTENT, publicUrl: PUBLIC, own: true });
    expect((await readFile(path.join(again.distDir, 'insights.json'))).equals(insightsBytes)).toBe(true);
    expect((await readFile(path.join(again.distDir, 'reviews.json'))).equals(await readFile(path.join(distDir, 'reviews.json')))).toBe(true);
  }, 180_000);
});

describe('MCP get_insights on the built service', () => {
  it('returns an overview of the served document, one section on request, and one aspect whole', async () => {
    const client = new Client({ name: 'insights-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', sidecar.url)));
    try {
      const all = await client.callTool({ name: 'get_insights', arguments: {} });
      expect(all.isError).toBeFalsy();
      const sections = ['summary', 'basis', 'responses', 'aspects', 'entities', 'topics', 'faq'];
      expect(all.structuredContent).toMatchObject({ sections, insights: { basis: insights.basis, responses: insights.responses } });
      const faq = await client.callTool({ name: 'get_insights', arguments: { section: 'faq' } });
      expect((faq.structuredContent as { insights: { faq: { id: string }[] } }).insights.faq.map((f) => f.id)).toEqual(insights.faq.map((f) => f.id));
      const price = await client.callTool({ name: 'get_insights', arguments: { aspect: 'price' } });
      expect(price.structuredContent).toMatchObject({ sections, insights: { aspects: [insights.aspects.find((a) => a.id === 'price')] } });
    } finally {
      await client.close();
    }
  });
});

describe('MCP search_reviews on the built service', () => {
  it('takes aspect and aspect_sentiment as the REST search does, and names the aspects when one is unknown', async () => {
    const client = new Client({ name: 'insights-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', sidecar.url)));
    try {
      const tools = await client.listTools();
      const schema = tools.tools.find((t) => t.name === 'search_reviews')!.inputSchema as { properties: Record<string, { enum?: string[] }> };
      expect(schema.properties['aspect']).toBeDefined();
      expect(schema.properties['aspect_sentiment']?.enum).toEqual(['positive', 'neutral', 'negative']);

      const args = { aspect: 'Price', aspect_sentiment: 'negative', limit: 100 };
      const result = await client.callTool({ name: 'search_reviews', arguments: args });
      const found = result.structuredContent as { reviews: ReviewsDataset['reviews']; total: number };
      const expected = dataset.reviews.filter((r) => r.aspects.some((a) => a.aspect === 'price' && a.polarity === 'negative'));
      expect(found.total).toBe(expected.length);
      expect(found.reviews.map((r) => r.id)).toEqual(expected.slice(0, 100).map((r) => r.id));
      expect(found.total).toBeGreaterThan(0);

      const bad = await client.callTool({ name: 'search_reviews', arguments: { aspect: 'vibes', aspect_sentiment: 'mixed' } });
      expect(bad.isError).toBe(true);
      const text = (bad.content as { text: string }[])[0]!.text;
      expect(text).toContain('aspect_sentiment');
      expect(text).toContain(`known aspects: ${insights.aspects.map((a) => a.id).join(', ')}`);
    } finally {
      await client.close();
    }
  });
});

describe('the build with invalid insights content', () => {
  async function copyContent(files: Record<string, string>) {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'content-')), 'content');
    await cp(SMALL_CONTENT, dir, { recursive: true });
    await mkdir(path.join(dir, 'insights'), { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    return dir;
  }
  const build = (contentDir: string) => buildSite({ contentDir, publicUrl: PUBLIC, outDir: path.join(contentDir, '../dist') });

  it('stops, naming the file and field of every problem in the aspect set and the editor files', async () => {
    const contentDir = await copyContent({
      'aspects.json': JSON.stringify({ aspects: [{ id: 'price', label: 'Price', terms: [] }, { id: 'Bad Id', label: 'X', terms: ['x'] }] }),
      'insights/faq.json': JSON.stringify({ entries: [{ question: 'Do you offer financing?' }] }),
      'insights/summary.json': '{ "text": ',
    });
    const result = await build(contentDir);
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toMatch(/^Invalid content: \d+ problems/);
    expect(message).toContain('aspects.json, field aspects.0.terms: must list at least one term');
    expect(message).toContain('aspects.json, field aspects.1.id');
    expect(message).toContain('insights/faq.json, field entries.0.answer');
    expect(message).toContain('insights/summary.json: is not valid JSON');
  });

  it('stops when an editor FAQ entry cites a review that is not published', async () => {
    const faq = { entries: [{ question: 'Is Mike good?', answer: 'Yes.', review_ids: ['r-0001', 'r-0004', 'r-9999'] }] };
    const result = await build(await copyContent({ 'insights/faq.json': JSON.stringify(faq) }));
    const message = result.ok ? '' : result.message;
    // r-0004 exists but is not verified, so it is not published either.
    expect(message).toContain('insights/faq.json, field entries.0.review_ids.1: no published review has the id "r-0004"');
    expect(message).toContain('insights/faq.json, field entries.0.review_ids.2: no published review has the id "r-9999"');
    expect(message).not.toContain('r-0001"');
  });

  it('builds with editor entries and summary in place of the generated ones', async () => {
    const faq = { entries: [{ id: 'aspect-price', question: 'Are prices fair?', answer: 'Yes, flat rates.', review_ids: ['r-0008'] }] };
    const summary = { text: 'An editor wrote this.', as_of: '2025-01-01' };
    const contentDir = await copyContent({ 'insights/faq.json': JSON.stringify(faq), 'insights/summary.json': JSON.stringify(summary) });
    const { distDir: out } = await buildTestSite({ contentDir, publicUrl: PUBLIC });
    const served: Insights = JSON.parse(await readFile(path.join(out, 'insights.json'), 'utf8'));
    expect(served.faq.find((f) => f.id === 'aspect-price')).toMatchObject({ source: 'editor', answer: 'Yes, flat rates.', review_ids: ['r-0008'] });
    expect(served.summary).toMatchObject({ text: 'An editor wrote this.', source: 'editor', stale: true });
  });
});
