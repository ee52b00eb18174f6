/**
 * A review's tlog-proof URL is given as `log_entry.proof_url` wherever its log_entry is given (issue 40):
 * each review of the REST search and since answers — a since answer prebuilt as a snapshot and one computed
 * live alike — carries the log_entry MCP `get_review` gives for it, and its proof_url serves the review's
 * C2SP tlog-proof. The real build and sidecar, over HTTP, with the MCP SDK client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedReview, ReviewLogEntry } from '../../core/schemas/published.ts';
import { rawRequest } from '../helpers/http.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';

type Listed = PublishedReview & { log_entry?: ReviewLogEntry };

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let client: Client;
let snapshotDates: string[];

beforeAll(async () => {
  const { distDir, manifest } = await buildTestSite({ publicUrl: PUBLIC });
  snapshotDates = Object.keys(manifest.files).filter((p) => p.startsWith('/api/reviews/since/')).map((p) => p.slice(-10));
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
  client = new Client({ name: 'rest-log-entry-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await sidecar?.close();
});

async function getReviews(path: string): Promise<Listed[]> {
  const res = await rawRequest(`${sidecar.url}${path}`);
  expect(res.status, path).toBe(200);
  return (JSON.parse(res.body.toString('utf8')) as { reviews: Listed[] }).reviews;
}

async function mcpLogEntry(id: string): Promise<ReviewLogEntry | undefined> {
  const result = await client.callTool({ name: 'get_review', arguments: { id } });
  expect(result.isError, id).toBeFalsy();
  return (result.structuredContent as { log_entry?: ReviewLogEntry }).log_entry;
}

describe('log_entry in the REST search and since answers', () => {
  it('is, for every review, the one MCP get_review gives, proof_url included', async () => {
    // The newest date is prebuilt as a snapshot; 1999-01-01 (every review) is rendered live.
    const newest = (await getReviews('/api/reviews/search?limit=1'))[0]!.date;
    expect(snapshotDates).toContain(newest);
    expect(snapshotDates).not.toContain('1999-01-01');
    const answers = {
      search: await getReviews('/api/reviews/search?limit=100'),
      'since (snapshot)': await getReviews(`/api/reviews/since/${newest}`),
      'since (live)': await getReviews('/api/reviews/since/1999-01-01'),
    };
    for (const [answer, reviews] of Object.entries(answers)) {
      expect(reviews.length, answer).toBeGreaterThan(0);
      for (const review of reviews) {
        const expected = await mcpLogEntry(review.id);
        expect(expected, review.id).toBeDefined();
        expect(review.log_entry, `${answer} ${review.id}`).toEqual(expected);
        expect(review.log_entry!.proof_url).toBe(`${PUBLIC}/log/proof/${review.id}.tlog-proof`);
      }
    }
  });

  it('points at the review’s tlog-proof, of the entry at log_entry.index', async () => {
    const [review] = await getReviews('/api/reviews/search?limit=1&sort=lowest');
    const { proof_url: proofUrl, index } = review!.log_entry!;
    const res = await rawRequest(`${sidecar.url}${new URL(proofUrl).pathname}`);
    expect(res.status).toBe(200);
    const proof = res.body.toString('utf8');
    expect(proof.startsWith('c2sp.org/tlog-proof@v1\n')).toBe(true);
    expect(proof).toMatch(new RegExp(`^index ${index}$`, 'm'));
  });
});
