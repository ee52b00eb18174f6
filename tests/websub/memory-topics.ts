/** An in-memory TopicSource whose content the test changes, standing in for the built static files. */
import { createHash } from 'node:crypto';
import { createServiceUrls } from '../../core/urls.ts';
import type { TopicContent, TopicSource } from '../../sidecar/websub/topics/source.ts';

export const CONTENT_TYPES = {
  feedXml: 'application/atom+xml; charset=utf-8',
  feedJson: 'application/feed+json; charset=utf-8',
  reviewsJson: 'application/json; charset=utf-8',
} as const;

export type MemoryTopics = TopicSource & {
  feedXml: string;
  feedJson: string;
  reviewsJson: string;
  /** Replaces a topic's bytes (and optionally its content type). */
  set(topicUrl: string, body: string | Buffer, contentType?: string): void;
  /** Content of every topic, versioned `label` (e.g. "v2"). */
  setAll(label: string): void;
  reads: number;
};

export function createMemoryTopics(base: string, label = 'v1'): MemoryTopics {
  const urls = createServiceUrls(base);
  const contents = new Map<string, TopicContent>();
  const types = new Map<string, string>([
    [urls.feedXml, CONTENT_TYPES.feedXml],
    [urls.feedJson, CONTENT_TYPES.feedJson],
    [urls.reviewsJson, CONTENT_TYPES.reviewsJson],
  ]);
  const source: MemoryTopics = {
    topicUrls: urls.topics(),
    feedXml: urls.feedXml,
    feedJson: urls.feedJson,
    reviewsJson: urls.reviewsJson,
    reads: 0,
    async read(topicUrl) {
      source.reads += 1;
      return contents.get(topicUrl);
    },
    set(topicUrl, body, contentType) {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const type = contentType ?? types.get(topicUrl) ?? 'application/octet-stream';
      contents.set(topicUrl, { body: bytes, contentType: type, etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"` });
    },
    setAll(next) {
      source.set(urls.feedXml, atomFeed(base, next));
      source.set(urls.feedJson, JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: `Reviews ${next}`, items: [] }));
      source.set(urls.reviewsJson, JSON.stringify({ label: next, reviews: [] }));
    },
  };
  source.setAll(label);
  return source;
}

export function atomFeed(base: string, label: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Reviews ${label}</title><id>${base}/feed.xml</id><updated>2024-01-01T00:00:00Z</updated></feed>\n`;
}
