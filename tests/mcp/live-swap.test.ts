/** getLive is read per request: a publish that swaps in new data reaches connected clients at once. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveData } from '../../core/dataset/live-data.ts';
import { connectClient, loadFixtureLive, listen, FIXTURE_PUBLIC_URL, TEST_SECRET, type RunningApp } from './mcp-fixture.ts';
import express from 'express';
import { createMcpRouter } from '../../sidecar/mcp/index.ts';

let first: LiveData;
let current: LiveData;
let app: RunningApp;

beforeAll(async () => {
  first = await loadFixtureLive();
  current = first;
  const router = createMcpRouter({
    getLive: () => current,
    config: { publicUrl: FIXTURE_PUBLIC_URL, mcp: { sessionSecret: TEST_SECRET, allowedOrigins: [] } },
  });
  app = await listen(express().use(router));
});
afterAll(() => app.close());

describe('a publish while a client is connected', () => {
  it('is answered from the new data on the next call, in the same session', async () => {
    const { client } = await connectClient(app.mcpUrl);
    const before = (await client.callTool({ name: 'get_business', arguments: {} })) as CallToolResult;
    expect(before.structuredContent).toMatchObject({ aggregate_rating: { review_count: first.dataset.reviews.length } });

    const newest = first.dataset.reviews.slice(0, 5);
    const insightsAfter = { ...first.insights, summary: { ...first.insights.summary, text: 'Written after the publish.' } };
    current = { ...first, dataset: { ...first.dataset, reviews: newest, aggregate_rating: { ...first.dataset.aggregate_rating, review_count: 5 } }, insights: insightsAfter };
    const after = (await client.callTool({ name: 'get_business', arguments: {} })) as CallToolResult;
    expect(after.structuredContent).toMatchObject({ aggregate_rating: { review_count: 5 } });

    const section = (await client.callTool({ name: 'get_insights', arguments: { section: 'summary' } })) as CallToolResult;
    expect(section.structuredContent).toMatchObject({ insights: { summary: { text: 'Written after the publish.' } } });
    await client.close();
    current = first;
  });
});
