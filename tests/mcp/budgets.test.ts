/**
 * Answers an agent can afford (issue 20 item 7), measured on the demo business (480 reviews) through
 * the SDK client: tools/list at most 12 KB with 1 KB of that free (issue 29), every default get_insights answer at most 8 KB, compact
 * search results with evidence offsets only on request, "best technician for water heaters" in one
 * call, and an empty since answer that names the newest review's date. The sizes are printed.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildPublication } from '../../core/dataset/build-dataset.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { DEMO_CONTENT } from '../helpers/site-build.ts';
import { connectClient, startMcpApp, type RunningApp } from './mcp-fixture.ts';

const KB = 1024;
const PUBLIC_URL = 'https://reviews.example.com';
let app: RunningApp;
let client: Client;
let live: LiveData;

beforeAll(async () => {
  const content = await loadContent(DEMO_CONTENT);
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const urls = createServiceUrls(PUBLIC_URL);
  const { dataset, insights } = buildPublication(content.value, urls);
  live = createLiveData({ dataset, insights, urls });
  app = await startMcpApp({ live, publicUrl: PUBLIC_URL });
  ({ client } = await connectClient(app.mcpUrl));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

async function callOk(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe('MCP size budgets on the demo business', () => {
  it('keeps a default get_changes page at most 20 KB: ids, kinds, times and log entries, whole reviews on request', async () => {
    const compact = await client.callTool({ name: 'get_changes', arguments: {} });
    const full = await client.callTool({ name: 'get_changes', arguments: { include_reviews: true } });
    const widest = await client.callTool({ name: 'get_changes', arguments: { limit: 1000 } });
    console.log(`get_changes: ${bytes(compact)} bytes at limit 100, ${bytes(widest)} at 1000; with include_reviews ${bytes(full)}`);
    expect(bytes(compact)).toBeLessThanOrEqual(20 * KB);
    expect(bytes(widest)).toBeLessThanOrEqual(96 * KB);
    const changes = (compact.structuredContent as { changes: Record<string, unknown>[] }).changes;
    expect(changes).toHaveLength(100);
    expect(Object.keys(changes[0]!).sort()).toEqual(['entry', 'id', 'kind', 'time']);
    expect((full.structuredContent as { changes: { review?: { id: string } }[] }).changes[0]!.review?.id).toBe(changes[0]!.id);
  });

  it('keeps tools/list at most 12 KB, with at least 1 KB of it free for what comes next', async () => {
    const list = await client.listTools();
    console.log(`tools/list: ${bytes(list)} bytes (${list.tools.map((t) => `${t.name} ${bytes(t)}`).join(', ')})`);
    expect(bytes(list)).toBeLessThanOrEqual(12 * KB - 1 * KB);
    // No repeated 330-character date pattern: a date is `format: date`.
    expect(JSON.stringify(list)).not.toContain('02-29');
  });

  it.each([
    {},
    { section: 'summary' },
    { section: 'basis' },
    { section: 'responses' },
    { section: 'aspects' },
    { section: 'entities' },
    { section: 'topics' },
    { section: 'faq' },
    { aspect: 'punctuality' },
    { technician: 'Darnell Washington' },
    { service: 'water-heater' },
  ])('answers get_insights %j in at most 8 KB', async (args) => {
    const answer = await callOk('get_insights', args);
    console.log(`get_insights ${JSON.stringify(args)}: ${bytes(answer)} bytes`);
    expect(bytes(answer)).toBeLessThanOrEqual(8 * KB);
    expect(Object.keys(answer.insights as object).length).toBeGreaterThan(0);
  });

  it('returns one aspect, technician or service whole, and names the choices of a wrong one', async () => {
    const aspect = (await callOk('get_insights', { aspect: 'punctuality' })).insights as { aspects: unknown[] };
    expect(aspect.aspects).toEqual([live.insights.aspects.find((a) => a.id === 'punctuality')]);
    const wrong = await client.callTool({ name: 'get_insights', arguments: { section: 'sentiment' } });
    expect(wrong.isError).toBe(true);
    expect((wrong.content as { text: string }[])[0]!.text).toMatch(/^- section: must be one of: summary, basis, responses, aspects, entities, topics, faq$/m);
    const list = await client.listTools();
    const input = list.tools.find((t) => t.name === 'get_insights')!.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(input.section!.enum).toEqual(['summary', 'basis', 'responses', 'aspects', 'entities', 'topics', 'faq']);
  });

  it('returns compact reviews from search_reviews, with evidence offsets only when asked', async () => {
    const compact = await callOk('search_reviews', { query: 'water heater', limit: 20 });
    const full = await callOk('search_reviews', { query: 'water heater', limit: 20, evidence: true });
    console.log(`search_reviews "water heater" (20): ${bytes(compact)} bytes compact, ${bytes(full)} with evidence`);
    const reviews = compact.reviews as { aspects: Record<string, unknown>[]; source?: string }[];
    expect(reviews.length).toBe(20);
    expect(reviews.flatMap((r) => r.aspects).every((a) => !('evidence' in a) && typeof a.polarity === 'string')).toBe(true);
    expect(reviews[0]).not.toHaveProperty('source');
    const withEvidence = (full.reviews as { aspects: { evidence?: unknown[] }[] }[]).flatMap((r) => r.aspects);
    expect(withEvidence.every((a) => Array.isArray(a.evidence) && a.evidence.length > 0)).toBe(true);
    expect(bytes(compact)).toBeLessThan(bytes(full) * 0.75);
  });

  it('ranks technicians for water heaters in one call, the same over REST and MCP, small samples unranked', async () => {
    const ranking = (await callOk('rank_technicians', { mentions_service: 'water-heater' })) as {
      reviews: number;
      technicians: { technician: string; rank: number | null; reviews: number; small_sample: boolean; positive_share: number }[];
    };
    console.log(`rank_technicians water-heater: ${bytes(ranking)} bytes`);
    const mine = live.dataset.reviews.filter((r) => r.services.includes('water-heater'));
    expect(ranking.reviews).toBe(mine.length);
    for (const row of ranking.technicians) {
      expect(row.reviews).toBe(mine.filter((r) => r.technicians.includes(row.technician)).length);
      expect(row.small_sample).toBe(row.reviews < 5);
      expect(row.rank === null).toBe(row.small_sample);
    }
    const ranks = ranking.technicians.map((t) => t.rank);
    const ranked = ranks.filter((r) => r !== null);
    expect(ranked).toEqual(ranked.map((_, i) => i + 1));
    expect(ranks.slice(ranked.length).every((r) => r === null)).toBe(true);
    const bad = await client.callTool({ name: 'rank_technicians', arguments: { mentions_service: 'roofing' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toMatch(/mentions_service: no service has the id "roofing"; known service ids: /);
  });

  it('names the newest review in an empty since answer', async () => {
    const empty = await callOk('get_reviews_since', { date: '2030-01-01' });
    const newest = live.dataset.reviews[0]!.date;
    expect(empty).toMatchObject({ reviews: [], total: 0, newest_review_date: newest });
    expect(empty.message).toBe(`No review is dated on or after 2030-01-01; the newest review is from ${newest}.`);
  });
});
