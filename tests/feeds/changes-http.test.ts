/**
 * `GET /api/reviews/changes` and the MCP tool `get_changes` over real HTTP (issue 23 item 4): a content
 * folder in git goes through random edits, hides and removals, each committed and built by the real
 * build into the dist the running sidecar serves. A mirror fed only by the REST change log, two
 * entries a page, ends byte-identical to the reviews of the /reviews.json served after every build;
 * get_changes answers what REST answers (compact unless asked for whole reviews); a repeated request
 * revalidates to 304; a token that is not ours, or altered, is a 400 worded like a bad cursor; a history
 * rewritten to drop a review withdraws it in a log that only grew (issue 27); only a token from before the
 * review log is a 410 that sends the client back to /reviews.json.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerkleTree, openLogFiles, verifyConsistency } from '../../core/log/index.ts';
import { compareNewestFirst } from '../../core/order.ts';
import type { Change, ChangesResult } from '../../core/schemas/changes.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createRandom } from '../../tools/fixtures/search/random.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { createContentRepo, createRandomHistory, type ContentRepo, type Operation } from './content-repo.ts';

/** A real build per step (a few seconds each) on a machine shared with other work. */
const TIMEOUT = 300_000;
/** Commits between two builds: the mirror catches up on several at once. */
const ROUNDS: Operation[][] = [
  ['edit', 'hide', 'import'],
  ['remove', 'reply', 'unhide', 'move'],
];

let repo: ContentRepo;
let history: ReturnType<typeof createRandomHistory>;
let distDir: string;
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let client: Client;

/** Builds the content as it is now into the served dist, and has the sidecar load it. */
async function rebuild() {
  await buildTestSite({ contentDir: repo.contentDir, outDir: distDir });
  await sidecar.builds.refresh();
}

const changesUrl = (query: Record<string, string>) => `${sidecar.url}/api/reviews/changes?${new URLSearchParams(query)}`;

async function getChanges(query: Record<string, string>): Promise<ChangesResult> {
  const response = await fetch(changesUrl(query));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ChangesResult;
}

async function callGetChanges(args: Record<string, unknown>) {
  return client.callTool({ name: 'get_changes', arguments: args });
}

/** Applies the log from `token` on, `limit` entries a page, to `mirror`; the token to go on from. */
async function follow(mirror: Map<string, PublishedReview>, token: string | undefined, limit: number): Promise<string | undefined> {
  for (;;) {
    const page = await getChanges({ ...(token === undefined ? {} : { since: token }), limit: String(limit) });
    for (const change of page.changes as Change[]) {
      if (change.kind === 'removed') mirror.delete(change.id);
      else mirror.set(change.id, change.review!);
    }
    token = page.next_token ?? undefined;
    if (!page.has_more) return token;
  }
}

async function servedReviews(): Promise<string> {
  const dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as { reviews: unknown[] };
  return JSON.stringify(dataset.reviews);
}

beforeAll(async () => {
  repo = await createContentRepo();
  history = createRandomHistory(repo, createRandom(5), 5);
  await history.step('import');
  await history.step('import');
  ({ distDir } = await buildTestSite({ contentDir: repo.contentDir }));
  sidecar = await startTestSidecar({ distDir });
  client = new Client({ name: 'changes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
}, TIMEOUT);

afterAll(async () => {
  await client?.close();
  await sidecar?.close();
});

describe('GET /api/reviews/changes', () => {
  it('keeps a mirror byte-identical to /reviews.json through edits, hides and removals, and get_changes answers the same', async () => {
    const mirror = new Map<string, PublishedReview>();
    let token = await follow(mirror, undefined, 2);
    const ops: string[] = [];
    for (const [step, round] of ROUNDS.entries()) {
      for (const op of round) ops.push(await history.step(op));
      await rebuild();
      const before = token;
      token = await follow(mirror, token, 2);
      expect(JSON.stringify([...mirror.values()].sort(compareNewestFirst)), `step ${step} (${ops.join(', ')})`).toBe(await servedReviews());

      // The MCP tool: the very answer REST gives, for the same token and limit, when asked for whole
      // reviews; by default the same changes without them.
      const query = { ...(before === undefined ? {} : { since: before }), limit: 3 };
      const rest = await getChanges({ ...query, limit: String(query.limit) } as Record<string, string>);
      const mcp = await callGetChanges({ ...query, include_reviews: true });
      expect(mcp.isError).toBeFalsy();
      expect(mcp.structuredContent).toEqual(rest);
      const compact = await callGetChanges(query);
      expect(compact.structuredContent).toEqual({ ...rest, changes: rest.changes.map((change) => ({ ...change, review: undefined })).map(({ review: _, ...change }) => change) });
    }
  }, TIMEOUT);

  it('answers 304 to a repeated request, and the same token when nothing is new', async () => {
    const first = await fetch(changesUrl({ limit: '1000' }));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const page = (await first.json()) as ChangesResult;
    const again = await fetch(changesUrl({ limit: '1000' }), { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    const nothingNew = await getChanges({ since: page.next_token! });
    expect(nothingNew).toMatchObject({ changes: [], count: 0, next_token: page.next_token, has_more: false });
    // Past `limit`, the next page is also in `Link: rel="next"` (RFC 8288), as search gives it.
    const first1 = await fetch(changesUrl({ limit: '1' }));
    const one = (await first1.json()) as ChangesResult;
    expect(one.has_more).toBe(true);
    const next = /^<([^>]+)>; rel="next"$/.exec(first1.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`https://reviews.example.com/api/reviews/changes?${new URLSearchParams({ since: one.next_token! })}&limit=1`);
    const second = (await (await fetch(`${sidecar.url}${new URL(next!).pathname}${new URL(next!).search}`)).json()) as ChangesResult;
    expect(second.changes[0]?.id).toBe(page.changes[1]?.id);
  });

  it.each([
    [{ since: 'not-a-token' }, 'since', 'is not a cursor this server issued'],
    [{ limit: '0' }, 'limit', 'must be an integer from 1 to 1000'],
    [{ cursor: 'x' }, 'cursor', 'is not a'],
  ])('refuses %j with 400 and an issue naming the parameter', async (query, parameter, message) => {
    const response = await fetch(changesUrl(query));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; issues: { path: string[]; message: string; code: string }[] };
    expect(body.error).toBe('invalid_parameters');
    expect(body.issues).toEqual([expect.objectContaining({ path: [parameter], message: expect.stringContaining(message) })]);
    if (parameter === 'since') {
      // Worded and coded as a bad search cursor, over REST and MCP alike.
      expect(body.issues[0]!.code).toBe('invalid_cursor');
      const search = (await (await fetch(`${sidecar.url}/api/reviews/search?cursor=not-a-token`)).json()) as typeof body;
      expect(search.issues[0]).toMatchObject({ message: body.issues[0]!.message, code: 'invalid_cursor' });
      const mcp = await callGetChanges({ since: 'not-a-token' });
      expect(mcp.isError).toBe(true);
      expect((mcp.content as { text: string }[])[0]!.text).toContain('- since: is not a cursor this server issued');
    }
  });

  it('refuses an altered or forged token with 400, never echoing it', async () => {
    const { next_token: token } = await getChanges({ limit: '1000' });
    const [position, check] = token!.split('.') as [string, string];
    for (const forged of [`${Number(position) - 1}.${check}`, `${position}.${check.split('').reverse().join('')}`, `${position}.${'A'.repeat(300)}`]) {
      const response = await fetch(changesUrl({ since: forged }));
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toContain(forged);
      expect(JSON.parse(text)).toMatchObject({ error: 'invalid_parameters', issues: [{ path: ['since'], code: expect.stringMatching(/invalid_cursor|too_big/) }] });
    }
    const mcp = await callGetChanges({ since: `${position}.${'A'.repeat(300)}` });
    expect(mcp.isError).toBe(true);
    expect((mcp.content as { text: string }[])[0]!.text.length).toBeLessThan(300);
  });

  it('withdraws a review dropped by a rewritten history, in a log that only grew', async () => {
    const readLog = () => openLogFiles(async (p) => readFile(path.join(distDir, 'log', p)).catch(() => undefined), 'reviews.example.com/log');
    const file = path.join(repo.contentDir, 'reviews', 'late.json');
    await writeFile(file, JSON.stringify([{ id: 'late-1', rating: 1, date: '2025-05-30', text: 'Came late, left a mess.', author: 'Lee', verified: true }]));
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'late review'], '2025-06-01T00:00:00Z');
    await rebuild();
    const before = await readLog();
    if (before.ok !== true) throw new Error('no log');
    const { next_token: token } = await getChanges({ limit: '1000' });
    // The owner drops the review from the content's history altogether.
    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    await rebuild();
    const after = await readLog();
    if (after.ok !== true) throw new Error('no log');
    expect(after.value.checkpoint.size).toBe(before.value.checkpoint.size + 1);
    expect(after.value.decoded.at(-1)).toMatchObject({ action: 'withdraw', review_id: 'late-1', rating: 1, date: '2025-05-30', reason: 'other' });
    const tree = MerkleTree.fromEntries(after.value.entries);
    const proof = tree.consistencyProof(before.value.checkpoint.size);
    expect(verifyConsistency(before.value.checkpoint.size, tree.size, proof, before.value.checkpoint.rootHash, after.value.checkpoint.rootHash)).toBe(true);
    const page = await getChanges({ since: token! });
    expect(page.changes).toEqual([expect.objectContaining({ id: 'late-1', kind: 'removed', reason: 'other' })]);
  }, TIMEOUT);

  it('answers 410 only to a token from before the review log, telling the client to start again from /reviews.json', async () => {
    const token = Buffer.from(JSON.stringify([4, 'late-1', '2025-06-01T00:00:00Z', '0123456789ab'])).toString('base64url');
    const response = await fetch(changesUrl({ since: token }));
    expect(response.status).toBe(410);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('token_expired');
    expect(body.message).toContain('/reviews.json');
    const mcp = await callGetChanges({ since: token });
    expect(mcp.isError).toBe(true);
    expect((mcp.content as { text: string }[])[0]!.text).toContain('/reviews.json');
    // Starting again from the beginning rebuilds the same copy.
    const mirror = new Map<string, PublishedReview>();
    await follow(mirror, undefined, 50);
    expect(JSON.stringify([...mirror.values()].sort(compareNewestFirst))).toBe(await servedReviews());
  }, TIMEOUT);
});
