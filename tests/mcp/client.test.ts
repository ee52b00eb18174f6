/**
 * The SDK's own Client over real HTTP (StreamableHTTPClientTransport, protocol 2025-11-25) against the
 * MCP router in an Express app: discovery, every tool, paging to the end, errors, resources, prompts.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveData } from '../../core/dataset/live-data.ts';
import type { ReviewList } from '../../core/schemas/published.ts';
import { connectClient, loadFixtureLive, startMcpApp, type RunningApp } from './mcp-fixture.ts';
import { MCP_TOOL_NAMES } from '../../core/mcp-tool-names.ts';

let live: LiveData;
let app: RunningApp;
let client: Client;

beforeAll(async () => {
  live = await loadFixtureLive();
  app = await startMcpApp({ live });
  ({ client } = await connectClient(app.mcpUrl));
});
afterAll(async () => {
  await client.close();
  await app.close();
});

const TOOL_NAMES = MCP_TOOL_NAMES;

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful result: structured content, and the same JSON as the text block. */
async function callOk<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const [text] = result.content;
  expect(text?.type).toBe('text');
  expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** A page of search_reviews or get_reviews_since: the published result shape, plus the paging cursor. */
type ReviewPage = ReviewList & { limit?: number; next_cursor: string | null };

async function pageToEnd(name: string, args: Record<string, unknown>): Promise<{ pages: ReviewPage[]; ids: string[] }> {
  const pages: ReviewPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await callOk<ReviewPage>(name, cursor === undefined ? args : { ...args, cursor });
    pages.push(page);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined && pages.length < 50);
  return { pages, ids: pages.flatMap((p) => p.reviews.map((r) => r.id)) };
}

describe('initialize', () => {
  it('negotiates 2025-11-25 and tells the agent what the data is and which tool to use', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'reviews-service', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('Harbor Lane Plumbing & Heating');
    for (const tool of TOOL_NAMES) expect(instructions).toContain(tool);
    expect(instructions).toContain('next_cursor');
  });
});

describe('tools/list', () => {
  it('lists every tool, titled, described, read-only, idempotent and closed-world, with both schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
  });

  it('gives search_reviews every REST search parameter under the same name, plus cursor', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_reviews')!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(
      ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'aspect', 'aspect_sentiment', 'has_response', 'has_media', 'sort', 'limit', 'evidence', 'cursor'].sort(),
    );
    expect(search.inputSchema.properties?.rating).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(search.inputSchema.properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(search.outputSchema?.properties).toHaveProperty('next_cursor');
  });
});

describe('get_business', () => {
  it('returns the business, its aggregate rating and links', async () => {
    const result = await callOk('get_business');
    expect(result).toMatchObject({
      business: { name: 'Harbor Lane Plumbing & Heating', technicians: expect.any(Array), services: expect.any(Array) },
      aggregate_rating: live.dataset.aggregate_rating,
      links: { reviews_json: 'https://reviews.harborlane.example/reviews.json' },
    });
  });
});

describe('search_reviews', () => {
  it('filters like the REST search: exact rating, newest first, limit applied', async () => {
    const result = await callOk<ReviewPage>('search_reviews', { rating: 5, limit: 3 });
    const fives = live.dataset.reviews.filter((r) => r.rating === 5);
    expect(result.total).toBe(fives.length);
    expect(result.reviews.map((r) => r.id)).toEqual(fives.slice(0, 3).map((r) => r.id));
    expect(result).toMatchObject({ count: 3, limit: 3, next_cursor: expect.any(String) });
  });

  it('resolves a technician alias to the canonical name', async () => {
    const result = await callOk<ReviewPage>('search_reviews', { mentions_technician: 'benny', limit: 100 });
    expect(result.total).toBeGreaterThan(0);
    for (const review of result.reviews) expect(review.technicians).toContain('Ben Carter');
  });

  it('pages to the end with next_cursor: every match once, in order, nothing cut', async () => {
    const { pages, ids } = await pageToEnd('search_reviews', { min_rating: 2, limit: 7 });
    const expected = live.dataset.reviews.filter((r) => r.rating >= 2).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(14);
    expect(ids).toEqual(expected);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    expect(pages.every((p) => p.total === expected.length)).toBe(true);
  });

  it('refuses a cursor replayed with other filters', async () => {
    const first = await callOk<ReviewPage>('search_reviews', { rating: 5, limit: 2 });
    const text = errorText(await call('search_reviews', { rating: 4, limit: 2, cursor: first.next_cursor }));
    expect(text).toMatch(/- cursor: was issued for other filters/);
  });

  it('names every bad argument at once, schema and data problems together', async () => {
    const text = errorText(
      await call('search_reviews', { rating: 7, since: '2024-02-30', mentions_technician: 'Nobody', limit: 0, cursor: 'garbage!', stars: 5 }),
    );
    expect(text).toContain('Invalid arguments for search_reviews');
    for (const name of ['rating', 'since', 'mentions_technician', 'limit', 'cursor', 'stars']) expect(text).toMatch(new RegExp(`^- ${name}: `, 'm'));
    expect(text).toContain('Rosa Delgado');
    expect(text).toMatch(/^- stars: is not an argument of search_reviews; the arguments are .*cursor$/m);
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ min_rating: 5.5 }, 'min_rating'],
    [{ until: '24-01-01' }, 'until'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ mentions_service: 'roofing' }, 'mentions_service'],
    [{ since: '2025-01-01', until: '2024-01-01' }, 'since'],
    [{ query: 42 }, 'query'],
  ])('answers %j with isError naming %s', async (args, name) => {
    expect(errorText(await call('search_reviews', args))).toMatch(new RegExp(`^- ${name}: `, 'm'));
  });
});

describe('get_review', () => {
  it('returns one review by id', async () => {
    const review = live.dataset.reviews[5]!;
    expect(await callOk('get_review', { id: review.id })).toEqual({ review });
  });

  it('names the id when no review has it', async () => {
    expect(errorText(await call('get_review', { id: 'hl-999' }))).toMatch(/^- id: no published review has this id/m);
  });

  it('does not publish an unverified review', async () => {
    expect(errorText(await call('get_review', { id: 'hl-017' }))).toMatch(/^- id: /m);
  });
});

describe('get_reviews_since', () => {
  it('pages through every review on or after the date, newest first', async () => {
    const { pages, ids } = await pageToEnd('get_reviews_since', { date: '2024-06-01', limit: 5 });
    const expected = live.dataset.reviews.filter((r) => r.date >= '2024-06-01').map((r) => r.id);
    expect(ids).toEqual(expected);
    expect(pages.length).toBe(Math.ceil(expected.length / 5));
    expect(pages[0]).toMatchObject({ total: expected.length, count: 5, limit: 5 });
  });

  it('returns an empty last page when nothing is newer', async () => {
    expect(await callOk('get_reviews_since', { date: '2030-01-01' })).toEqual({
      reviews: [],
      count: 0,
      total: 0,
      limit: 20,
      newest_review_date: live.dataset.reviews[0]!.date,
      message: `No review is dated on or after 2030-01-01; the newest review is from ${live.dataset.reviews[0]!.date}.`,
      next_cursor: null,
    });
  });

  it.each([
    [{}, 'date'],
    [{ date: '2024-13-01' }, 'date'],
    [{ date: '2024-01-01', limit: 101 }, 'limit'],
    [{ date: '2024-01-01', cursor: 'eyJ2IjoxfQ' }, 'cursor'],
  ])('answers %j with isError naming %s', async (args, name) => {
    expect(errorText(await call('get_reviews_since', args))).toMatch(new RegExp(`^- ${name}: `, 'm'));
  });
});

describe('get_rating_summary', () => {
  it('summarises by month with the same mean as the aggregate rating', async () => {
    const summary = await callOk<{ overall: { count: number; mean: number }; by_period: { period: string; count: number }[]; by_technician: { technician: string }[] }>(
      'get_rating_summary',
    );
    expect(summary.overall).toMatchObject({ count: live.dataset.reviews.length, mean: live.dataset.aggregate_rating.rating_value });
    expect(summary.by_period[0]!.period).toBe('2023-11');
    expect(summary.by_period.at(-1)!.period).toBe('2025-03');
    expect(summary.by_period).toHaveLength(17);
    expect(summary.by_technician.map((t) => t.technician)).toEqual(['Rosa Delgado', 'Ben Carter', 'Lena Fischer']);
  });

  it('groups by year within a date range', async () => {
    const summary = await callOk<{ by_period: { period: string }[]; since: string }>('get_rating_summary', { period: 'year', since: '2024-01-01' });
    expect(summary.by_period.map((p) => p.period)).toEqual(['2024', '2025']);
    expect(summary.since).toBe('2024-01-01');
  });

  it('names bad arguments', async () => {
    const text = errorText(await call('get_rating_summary', { period: 'week', until: 'yesterday' }));
    expect(text).toMatch(/^- period: /m);
    expect(text).toMatch(/^- until: /m);
  });
});

describe('get_insights', () => {
  it('returns an overview of every section, compact, and their names', async () => {
    const result = await callOk<{ sections: string[]; insights: Record<string, unknown> }>('get_insights');
    expect(result.sections).toEqual(['summary', 'basis', 'responses', 'aspects', 'entities', 'topics', 'faq']);
    expect(Object.keys(result.insights)).toEqual(result.sections);
    expect(result.insights.basis).toEqual(live.insights.basis);
    expect(result.insights.responses).toEqual(live.insights.responses);
  });

  it('returns one section', async () => {
    const result = await callOk<{ insights: Record<string, unknown> }>('get_insights', { section: 'faq' });
    expect(Object.keys(result.insights)).toEqual(['faq']);
  });

  it('lists the valid sections when the section is unknown', async () => {
    expect(errorText(await call('get_insights', { section: 'sentiment' }))).toMatch(/^- section: must be one of: summary, basis, responses, aspects, entities, topics, faq$/m);
  });
});

describe('resources', () => {
  it('lists the business and the insights, and the review template without listing reviews', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['reviews://business', 'reviews://insights']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'reviews://reviews/{id}', mimeType: 'application/json' })]);
  });

  it('reads the business and the insights as JSON', async () => {
    const business = await client.readResource({ uri: 'reviews://business' });
    expect(JSON.parse((business.contents[0] as { text: string }).text)).toEqual({ business: live.dataset.business, aggregate_rating: live.dataset.aggregate_rating });
    const insights = await client.readResource({ uri: 'reviews://insights' });
    expect(JSON.parse((insights.contents[0] as { text: string }).text)).toEqual(live.insights);
  });

  it('reads a review through the template', async () => {
    const review = live.dataset.reviews[0]!;
    const result = await client.readResource({ uri: `reviews://reviews/${review.id}` });
    expect(result.contents[0]).toMatchObject({ uri: `reviews://reviews/${review.id}`, mimeType: 'application/json' });
    expect(JSON.parse((result.contents[0] as { text: string }).text)).toEqual(review);
  });

  it('answers -32002 for a review that does not exist', async () => {
    await expect(client.readResource({ uri: 'reviews://reviews/nope' })).rejects.toMatchObject({ code: -32002 });
  });
});

describe('prompts', () => {
  it('lists the prompts with their arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['technician_feedback', 'service_complaints', 'reviews_since']);
    for (const prompt of prompts) {
      expect(prompt.description).toBeTruthy();
      expect(prompt.arguments?.length).toBe(1);
    }
  });

  it('builds a request that names the tools to call', async () => {
    const result = await client.getPrompt({ name: 'technician_feedback', arguments: { technician: 'Rosa Delgado' } });
    const text = (result.messages[0]!.content as { text: string }).text;
    expect(text).toContain('mentions_technician="Rosa Delgado"');
    expect(text).toContain('get_rating_summary');
  });

  it('completes technician names and service ids from the business', async () => {
    const technicians = await client.complete({ ref: { type: 'ref/prompt', name: 'technician_feedback' }, argument: { name: 'technician', value: 'l' } });
    expect(technicians.completion.values).toEqual(['Lena Fischer']);
    const services = await client.complete({ ref: { type: 'ref/prompt', name: 'service_complaints' }, argument: { name: 'service', value: '' } });
    expect(services.completion.values).toEqual(['drain-cleaning', 'boiler-repair', 'water-heater']);
  });
});

describe('sessions across instances', () => {
  it('lets a client keep its session on another instance that shares the secret', async () => {
    const { client: first, transport } = await connectClient(app.mcpUrl);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeTruthy();
    const twin = await startMcpApp({ live });
    try {
      const { client: second, transport: resumed } = await connectClient(twin.mcpUrl, { sessionId });
      expect(resumed.sessionId).toBe(sessionId);
      const { tools } = await second.listTools();
      expect(tools).toHaveLength(TOOL_NAMES.length);
      await second.close();
    } finally {
      await first.close();
      await twin.close();
    }
  });
});
