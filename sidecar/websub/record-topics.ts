/**
 * Recording a build's topics in the hub's store: each topic is read, hashed, and handed to the store,
 * which decides whether its bytes changed and, if so, queues a delivery for every subscriber in the
 * same transaction. A topic's derived topics (the slice feeds of `/reviews.json`) are read after it,
 * from the same build. Used by the hub on every ping, build swap and start, and by `npm run publish`
 * when no service runs (the next start then finds the change recorded and delivers it).
 */
import { createHash } from 'node:crypto';
import type { HubStore } from './hub-store.ts';
import type { Logger } from '../logger.ts';
import type { TopicSource } from './topic-source.ts';

export type TopicCheck = { topic: string; changed: boolean; enqueued: number };

/** Rejects with the store's error when it cannot record; a topic that cannot be read is logged and counts as unchanged. */
export async function recordTopicContents(
  deps: { store: HubStore; topics: TopicSource; log: Logger; now: () => number },
  requested: readonly string[],
): Promise<TopicCheck[]> {
  const { store, topics, log, now } = deps;
  const checks: TopicCheck[] = [];
  const topicUrls = [...requested];
  const queued = new Set(topicUrls);
  for (let i = 0; i < topicUrls.length; i++) {
    const topic = topicUrls[i]!;
    const content = await topics.read(topic).catch((err: unknown) => {
      log.error('websub_topic_unreadable', { topic, error: String(err) });
      return undefined;
    });
    if (!content) {
      checks.push({ topic, changed: false, enqueued: 0 });
      continue;
    }
    for (const next of topics.derivedFrom?.(topic) ?? []) {
      if (!queued.has(next)) {
        queued.add(next);
        topicUrls.push(next);
      }
    }
    // The store decides whether the bytes changed: no instance skips a topic on what it remembers itself.
    const hash = createHash('sha256').update(content.body).digest('hex');
    const recorded = await store.recordTopicContent({ topic, hash, contentType: content.contentType, body: content.body }, now());
    checks.push({ topic, ...recorded });
    if (recorded.changed) log.info('websub_topic_changed', { topic, hash, subscribers: recorded.enqueued });
  }
  return checks;
}
