/**
 * Customers' photos in the data, over real HTTP on a real build of the small fixture (issue 22): the
 * files served, /reviews.json, REST search, MCP search_reviews and get_review, the search page and both
 * feeds list the same media, and `has_media` filters alike everywhere.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const WITH_MEDIA = ['r-0006', 'r-0003', 'r-0001'];
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let client: Client;
let byId: Map<string, PublishedReview>;

beforeAll(async () => {
  const { distDir } = await buildTestSite();
  sidecar = await startTestSidecar({ distDir });
  client = new Client({ name: 'photos-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
  const dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as { reviews: PublishedReview[] };
  byId = new Map(dataset.reviews.map((r) => [r.id, r]));
});
afterAll(async () => {
  await client?.close();
  await sidecar?.close();
});

const local = (url: string) => `${sidecar.url}${new URL(url).pathname}`;
const structured = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as Record<string, unknown>;
};

describe('photos over HTTP', () => {
  it('serves every variant with its type and an immutable cache lifetime', async () => {
    const media = byId.get('r-0001')!.media[0]!;
    for (const variant of media.variants) {
      const res = await fetch(local(variant.url));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(variant.mime_type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength).toBe(variant.size_in_bytes);
    }
  });

  it.each([
    ['true', WITH_MEDIA],
    ['false', ['r-0008', 'r-0007', 'r-0005', 'r-0002']],
  ])('filters has_media=%s alike over REST, MCP search_reviews and the search page', async (value, ids) => {
    const rest = (await (await fetch(`${sidecar.url}/api/reviews/search?has_media=${value}`)).json()) as { reviews: PublishedReview[] };
    expect(rest.reviews.map((r) => r.id)).toEqual(ids);
    for (const review of rest.reviews) expect(review.media).toEqual(byId.get(review.id)!.media);

    const mcp = (await structured('search_reviews', { has_media: value === 'true' })) as { reviews: { id: string; media: unknown[] }[] };
    expect(mcp.reviews.map((r) => r.id)).toEqual(ids);
    for (const review of mcp.reviews) {
      const { variants: _v, size_in_bytes: _s, ...compact } = byId.get(review.id)!.media[0] ?? { variants: [], size_in_bytes: 0 };
      expect(review.media).toEqual(byId.get(review.id)!.media.length === 0 ? [] : [compact]);
    }

    const html = await (await fetch(`${sidecar.url}/search/?has_media=${value}`, { headers: { Accept: 'text/html' } })).text();
    expect([...html.matchAll(/<article class="review" id="([^"]+)"/g)].map((m) => m[1])).toEqual(ids);
  });

  it('refuses has_media other than true or false, over REST and MCP', async () => {
    const res = await fetch(`${sidecar.url}/api/reviews/search?has_media=yes`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string[] }[] }).issues.map((i) => i.path)).toEqual([['has_media']]);
    const result = await client.callTool({ name: 'search_reviews', arguments: { has_media: 'yes' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^- has_media: /m);
  });

  it('get_review returns the media of /reviews.json, every variant included', async () => {
    const { review } = (await structured('get_review', { id: 'r-0006' })) as { review: PublishedReview };
    expect(review.media).toEqual(byId.get('r-0006')!.media);
    expect(review.media[0]).toMatchObject({ type: 'video', video_url: 'https://video.example/ac-unit-running', alt: 'The outdoor unit running again' });
    expect(review.media[0]!.variants.length).toBeGreaterThanOrEqual(2);
  });

  it('shows thumbnails on the review card: alt, reserved size, lazy, a plain link to the full picture', async () => {
    const html = await (await fetch(`${sidecar.url}/reviews/2025-01/`, { headers: { Accept: 'text/html' } })).text();
    const card = /<article class="review" id="r-0001">([\s\S]*?)<\/article>/.exec(html)![1]!;
    const photo = byId.get('r-0001')!.media[0]!;
    const link = /<a href="([^"]+)"[^>]*>\s*<picture>([\s\S]*?)<\/picture>/.exec(card)!;
    expect(link[1]).toBe(new URL(photo.url).pathname);
    expect(link[2]).toMatch(/<source type="image\/webp" srcset="\/media\/[a-f0-9]{16}-320\.webp 320w, \/media\/[a-f0-9]{16}-640\.webp 640w, \/media\/[a-f0-9]{16}-960\.webp 960w"/);
    const img = /<img [^>]+>/.exec(link[2]!)![0];
    for (const attribute of [`src="${new URL(photo.thumbnail_url).pathname}"`, 'width="320"', 'height="240"', `alt="${photo.alt}"`, 'loading="lazy"']) expect(img).toContain(attribute);
    // The video links to the video itself.
    const video = /<article class="review" id="r-0006">([\s\S]*?)<\/article>/.exec(await (await fetch(`${sidecar.url}/reviews/2025-02/`)).text())![1]!;
    expect(video).toContain('href="https://video.example/ac-unit-running"');
  });

  it('shows "Photos from customers" on the home page and on the pages of the technicians and services photographed', async () => {
    const gallery = async (path: string) => {
      const html = await (await fetch(`${sidecar.url}${path}`)).text();
      const section = /<h2 id="photos-title">Photos from customers<\/h2>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
      return [...section.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    };
    expect(await gallery('/')).toEqual(['/reviews/2025-02/#r-0006', '/reviews/2025-01/#r-0003', '/reviews/2025-01/#r-0001', '/search/?has_media=true']);
    expect(await gallery('/services/water-heater/')).toEqual(['/reviews/2025-01/#r-0003', '/search/?mentions_service=water-heater&amp;has_media=true']);
    expect(await gallery('/services/ac-repair/')).toContain('/reviews/2025-02/#r-0006');
  });

  it('puts each photo in the JSON Feed as an attachment and in the Atom feed as an enclosure', async () => {
    const feed = (await (await fetch(`${sidecar.url}/api/feed.json`)).json()) as { items: { id: string; attachments?: { url: string }[] }[] };
    const photo = byId.get('r-0001')!.media[0]!;
    const item = feed.items.find((i) => i.id === byId.get('r-0001')!.url)!;
    expect(item.attachments).toEqual([{ url: photo.url, mime_type: 'image/jpeg', size_in_bytes: photo.size_in_bytes, title: photo.alt }]);
    const atom = await (await fetch(`${sidecar.url}/feed.xml`)).text();
    expect(atom).toContain(`<link rel="enclosure" type="image/jpeg" length="${photo.size_in_bytes}" href="${photo.url}" title="${photo.alt}"/>`);
  });
});
