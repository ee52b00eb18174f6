/**
 * A rewrite never goes unseen (issue 40, "Done when"): a 2-star review edited in the content into a
 * glowing 5-star one, its owner reply deleted, and published with the real build. The reader's
 * `npm run verify`, with the state of its visit before, names the review with its old and new rating;
 * /log/ and the review's own card say it in words; MCP `get_changes` (the real sidecar, through the SDK
 * client) says the same.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities } from '../helpers/html.ts';
import { runScript } from '../helpers/run-script.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startStaticServer, type StaticServer } from '../helpers/static-server.ts';
import { connectClient } from '../mcp/mcp-fixture.ts';

/** Two full builds and three runs of verify: minutes on a busy machine. */
const TIMEOUT_MS = 600_000;

let work: string;
let content: string;
let distDir: string;
let copy: StaticServer;
let before: { code: number | null };
let after: { code: number | null; stdout: string; stderr: string };

const verify = (url: string) => runScript(process.execPath, ['scripts/verify.ts', url, '--state', path.join(work, 'reader.json')], { env: { PATH: process.env.PATH ?? '' } });

/** The CDN copy of the build in service at one address, as a reader's verify reaches it. */
async function copyToCdn() {
  const dir = path.join(work, 'cdn');
  await rm(dir, { recursive: true, force: true });
  await cp(await realpath(distDir), dir, { recursive: true });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'rating-rewrite-'));
  content = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, content, { recursive: true });
  await buildTestSite({ contentDir: content, outDir: distDir });
  await copyToCdn();
  copy = await startStaticServer(path.join(work, 'cdn'));
  before = await verify(copy.url);

  const file = path.join(content, 'reviews/2025-01.json');
  const reviews = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
  const bad = reviews.find((r) => r.id === 'r-0002')!;
  expect(bad).toMatchObject({ rating: 2 });
  Object.assign(bad, { rating: 5, text: 'Great work, fast and friendly. Would recommend!' });
  delete bad.response;
  await writeFile(file, JSON.stringify(reviews, null, 2));
  await buildTestSite({ contentDir: content, outDir: distDir });
  await copyToCdn();
  after = await verify(copy.url);
}, TIMEOUT_MS);

afterAll(async () => {
  await copy?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a 2-star review rewritten as a 5-star one', () => {
  it('is named by the reader\'s verify with its old and new rating', () => {
    expect(before.code).toBe(0);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/Updates since your last visit \(entries \d+–\d+\): 1, 1 of them changing a rating\./);
    expect(after.stdout).toMatch(/ {2}entry \d+, \S+: review r-0002 of 2025-01-03, rating 2 → 5, words changed, reply changed; the owner's correction, reason: other\n/);
  });

  it('is told in words on /log/', async () => {
    const html = decodeEntities(await readFile(path.join(await realpath(distDir), 'log/index.html'), 'utf8')).replace(/\s+/g, ' ');
    expect(html).toContain('Published reviews have been changed 1 time: 1 change by the business itself.');
    expect(html.replace(/<[^>]+>/g, '')).toMatch(/On [A-Z][a-z]+ \d+, \d{4}, a review of January 3, 2025 went from 2 stars to 5 stars, and its words were changed too: changed by the business \(no reason given\) \(entry \d+\)\./);
    // Its date leads to the review, on its month's page.
    expect(html).toContain('a review of <a href="/reviews/2025-01/#r-0002">January 3, 2025</a> went from');
  });

  it('says on its own card the rating it was first published with, and the change', async () => {
    const html = decodeEntities(await readFile(path.join(await realpath(distDir), 'reviews/2025-01/index.html'), 'utf8'));
    const card = html.slice(html.indexOf('<article class="review" id="r-0002">')).split('</article>')[0]!;
    expect(card).toMatch(/<p class="meta rating-change">First published with 2 stars; its rating was changed to 5 stars on [A-Z][a-z]+ \d+, \d{4}: changed by the business \(no reason given\)<\/p>/);
    // A review never changed says nothing of the kind.
    expect(html.split('rating-change').length - 1).toBe(1);
  });

  it('is said the same by MCP get_changes', async () => {
    const sidecar = await startTestSidecar({ distDir });
    const { client } = (await connectClient(new URL(`${sidecar.url}/mcp`))) as { client: Client };
    try {
      const result = await client.callTool({ name: 'get_changes', arguments: {} });
      const changes = (result.structuredContent as { changes: Record<string, unknown>[] }).changes;
      expect(changes.find((c) => c.id === 'r-0002')).toMatchObject({ kind: 'changed', change: 'correction', previous_rating: 2, words_changed: true });
    } finally {
      await client.close();
      await sidecar.close();
    }
  }, TIMEOUT_MS);
});
