/**
 * The review log as the build writes it and the sidecar serves it (issue 27 item 1, docs/log.md): the
 * checkpoint (text/plain, cached seconds, a WebSub topic), the vkey, the tiles and entry bundles
 * (octet-stream, immutable), the same headers in `_headers` for a CDN; each review's `updated` is the time
 * of its entry in the log.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntryBundle, decodeLogEntry, digestReview, isReviewEntry, openLogFiles } from '../../core/log/index.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';

let distDir: string;
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;

beforeAll(async () => {
  ({ distDir } = await buildTestSite({}));
  sidecar = await startTestSidecar({ distDir });
}, 300_000);
afterAll(async () => {
  await sidecar?.close();
});

describe('the review log served', () => {
  it('serves the checkpoint, the vkey, the tiles and the bundles with their types and caching', async () => {
    const checkpoint = await fetch(`${sidecar.url}/log/checkpoint`);
    expect(checkpoint.status).toBe(200);
    expect(checkpoint.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(checkpoint.headers.get('cache-control')).toBe('public, max-age=5');
    expect(checkpoint.headers.get('link')).toBe('<https://reviews.example.com/api/websub/hub>; rel="hub", <https://reviews.example.com/log/checkpoint>; rel="self"');
    const [origin, size] = (await checkpoint.text()).split('\n');
    expect(origin).toBe('reviews.example.com/log');

    const vkey = await fetch(`${sidecar.url}/log/vkey`);
    expect(vkey.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await vkey.text()).toMatch(/^reviews\.example\.com\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*\n$/);

    const bundlePath = `/log/tile/entries/000.p/${size}`;
    const bundle = await fetch(`${sidecar.url}${bundlePath}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('application/octet-stream');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const tile = await fetch(`${sidecar.url}/log/tile/0/000.p/${size}`);
    expect((await tile.arrayBuffer()).byteLength).toBe(32 * Number(size));

    const headersFile = await readFile(path.join(distDir, '_headers'), 'utf8');
    expect(headersFile).toContain('/log/checkpoint\n  Content-Type: text/plain; charset=utf-8\n  Cache-Control: public, max-age=5');
    expect(headersFile).toContain(`${bundlePath}\n  Content-Type: application/octet-stream\n  Cache-Control: public, max-age=31536000, immutable`);
  });

  it('holds one publish entry per served review, with its digest, and dates updated by it', async () => {
    const opened = await openLogFiles(async (p) => {
      const response = await fetch(`${sidecar.url}/log/${p}`);
      return response.ok ? new Uint8Array(await response.arrayBuffer()) : undefined;
    }, 'reviews.example.com/log');
    if (opened.ok !== true) throw new Error(JSON.stringify(opened));
    const { reviews } = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as { reviews: PublishedReview[] };
    const byId = new Map(opened.value.decoded.filter(isReviewEntry).map((e) => [e.review_id, e]));
    expect(byId.size).toBe(reviews.length);
    for (const review of reviews) {
      const entry = byId.get(review.id)!;
      expect(entry).toMatchObject({ action: 'publish', date: review.date, rating: review.rating, digest: digestReview(review) });
      expect(review.updated >= entry.time).toBe(true);
    }
    const bundle = await readFile(path.join(distDir, 'log/tile/entries', `000.p/${opened.value.checkpoint.size}`));
    expect(decodeEntryBundle(bundle).map((b) => decodeLogEntry(b).ok)).not.toContain(false);
  });

  it('lets the hub take a subscription to the checkpoint', async () => {
    const ask = async (topic: string) => {
      const form = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': 'https://127.0.0.1:9/cb' });
      return (await fetch(`${sidecar.url}/api/websub/hub`, { method: 'POST', body: form })).text();
    };
    expect(await ask('https://reviews.example.com/log/vkey')).toMatch(/topic/i);
    expect(await ask('https://reviews.example.com/log/checkpoint')).not.toMatch(/topic/i);
  });
});
