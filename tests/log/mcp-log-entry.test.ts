/**
 * An agent can cite a review's entry in the public review log (issue 27 item 6): MCP `get_review` answers
 * `log_entry` — the position of the entry whose digest is the review as served, the checkpoint URL and the
 * review's tlog-proof URL (issue 40 item 5) —
 * through the MCP SDK client, from a build whose change log is its review log.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangeLog } from '../../core/dataset/change-log.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { digestReview, encodeLogEntry, type LogEntry } from '../../core/log/index.ts';
import { connectClient, FIXTURE_PUBLIC_URL, loadFixtureLive, startMcpApp, type RunningApp } from '../mcp/mcp-fixture.ts';
import { createServiceUrls } from '../../core/urls.ts';

let live: LiveData;
let entries: LogEntry[];
let app: RunningApp;
let client: Client;

beforeAll(async () => {
  const fixture = await loadFixtureLive();
  const [first, ...rest] = fixture.dataset.reviews;
  const publish = (r: typeof first & object, action: 'publish' | 'update' = 'publish'): LogEntry => ({ action, review_id: r.id, time: '2026-01-02T03:04:05Z', date: r.date, rating: r.rating, digest: digestReview(r) });
  // The first review is published, the others, then the first is updated: its latest entry is the last one.
  entries = [publish(first!), ...rest.map((r) => publish(r)), publish(first!, 'update')];
  live = createLiveData({ dataset: fixture.dataset, insights: fixture.insights, urls: createServiceUrls(FIXTURE_PUBLIC_URL), changes: createChangeLog(entries, entries.map(encodeLogEntry)) });
  app = await startMcpApp({ live });
  ({ client } = await connectClient(app.mcpUrl));
});

afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('get_review', () => {
  it('cites the review’s latest log entry, whose digest is the review as served, and the checkpoint', async () => {
    const [first, second] = live.dataset.reviews;
    for (const [review, index] of [[first!, entries.length - 1], [second!, 1]] as const) {
      const result = await client.callTool({ name: 'get_review', arguments: { id: review.id } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ review, log_entry: { index, checkpoint_url: `${FIXTURE_PUBLIC_URL}/log/checkpoint`, proof_url: `${FIXTURE_PUBLIC_URL}/log/proof/${review.id}.tlog-proof` } });
      expect(entries[index]).toMatchObject({ review_id: review.id, digest: digestReview(review) });
    }
  });
});
