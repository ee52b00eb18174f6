import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let client: Client;

beforeAll(async () => {
  const { distDir } = await buildTestSite({ contentDir: DEMO_CONTENT });
  sidecar = await startTestSidecar({ distDir });
  client = new Client({ name: 'parity-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await sidecar?.close();
});

describe('REST search and the MCP tool search_reviews', () => {
  it.each([
    { rating: 5, limit: 10 },
    { min_rating: 2, query: 'on time', limit: 25 },
    { mentions_technician: 'mike', since: '2025-01-01', limit: 100 },
    { mentions_service: 'ac-repair', until: '2025-06-30' },
    { query: 'price', rating: 1 },
    { aspect: 'price', aspect_sentiment: 'negative' },
    { aspect_sentiment: 'negative', min_rating: 4, limit: 50 },
    { has_response: true, sort: 'lowest', limit: 30 },
    { has_response: false, sort: 'highest', query: 'the' },
    { has_media: true },
    { has_media: false, min_rating: 4, limit: 5 },
  ])('return the same reviews for %j', async (params) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const rest = await (await fetch(`${sidecar.url}/api/reviews/search?${qs}`)).json();
    const result = await client.callTool({ name: 'search_reviews', arguments: params });
    expect(result.isError).toBeFalsy();
    const mcp = result.structuredContent as { reviews: { id: string; text: string; aspects: { aspect: string; polarity: string }[] }[]; total: number };
    // MCP answers compact reviews (no evidence offsets unless asked): the same reviews, the same words and polarities.
    type Full = { id: string; text: string; aspects: { aspect: string; polarity: string }[] };
    const compact = (r: Full) => ({ id: r.id, text: r.text, aspects: r.aspects.map(({ aspect, polarity }) => ({ aspect, polarity })) });
    expect(mcp.reviews.map(compact)).toEqual((rest.reviews as Full[]).map(compact));
    expect(mcp.total).toBe(rest.total);
    expect(rest.count).toBeGreaterThan(0);
  });
});

describe('REST search and the MCP tool search_reviews, given the same bad input', () => {
  /** `path: message` per issue; an unknown name is worded per protocol (parameter, argument), so only its path counts. */
  const normalise = (path: string, message: string) => (/^is not an? (search parameter|argument)/.test(message) ? `${path}: unknown` : `${path}: ${message}`);

  it.each([
    { foo: 1, mentions_technician: 'Nobody', rating: 9 },
    { rating: 0, limit: 500, min_rating: 5.5 },
    { since: '2024-02-30', until: '2024-01-01' },
    { since: '2025-05-02', until: '2025-05-01', query: 'x'.repeat(201) },
    { mentions_service: 'gardening', aspect: 'vibes', aspect_sentiment: 'mixed' },
    { has_response: 'yes', sort: 'date', rating: 'five' },
    { mentions_technician: '', aspect: 'price', aspect_sentiment: 'Negative' },
  ])('report the same issues for %j', async (params) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const response = await fetch(`${sidecar.url}/api/reviews/search?${qs}`);
    expect(response.status).toBe(400);
    const rest = ((await response.json()) as { issues: { path: string[]; message: string }[] }).issues.map((i) => normalise(i.path.join('.'), i.message));

    const result = await client.callTool({ name: 'search_reviews', arguments: params });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    const mcp = [...text.matchAll(/^- ([^:]+): (.*)$/gm)].map((m) => normalise(m[1]!, m[2]!));

    expect(rest.length).toBeGreaterThan(0);
    expect(mcp.sort()).toEqual(rest.sort());
  });
});
