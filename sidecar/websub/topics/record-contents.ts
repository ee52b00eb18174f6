/**
 * Recording a build's topics in the hub's store: each topic is read, hashed, and handed to the store,
 * which decides whether its bytes changed and, if so, queues a delivery for every subscriber in the
 * same transaction. A topic's derived topics (the slice feeds of `/reviews.json`) are read after it,
 * from the same build. Used by the hub on every ping, build swap and start, and by `npm run publish`
 * when no service runs (the next start then finds the change recorded and delivers it).
 */
import { createHash } from 'node:crypto';
import type { HubStore } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';
import type { TopicSource } from './source.ts';

export type TopicCheck = {
  topic: string;
  changed: boolean;
  enqueued: number;
  /** The build the bytes came from (TopicContent's `build`), when the source names one. */
  build?: string;
};

/**
 * Rejects with the store's error when it cannot record; a topic that cannot be read is logged and counts
 * as unchanged. Each changed topic is one `websub_topic_changed` line, or, with `summarise` (the start-up
 * comparison, where a first start finds every topic new), one `websub_topics_recorded` line for all.
 */
export async function recordTopicContents(
  deps: { store: HubStore; topics: TopicSource; log: Logger; now: () => number },
  requested: readonly string[],
  options: { summarise?: boolean } = {},
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
    // The build's topics come hashed by its loading thread: /reviews.json at 10k reviews is 9 MB, 20–50 ms here.
    const hash = content.sha256 ?? createHash('sha256').update(content.body).digest('hex');
    const recorded = await store.recordTopicContent({ topic, hash, contentType: content.contentType, body: content.body }, now());
    checks.push({ topic, ...recorded, ...(content.build === undefined ? {} : { build: content.build }) });
    if (recorded.changed && !options.summarise) log.info('websub_topic_changed', { topic, hash, subscribers: recorded.enqueued });
  }
  if (options.summarise) log.info('websub_topics_recorded', summaryOf(checks));
  return checks;
}

/** The start-up line: how many topics were compared, how many changed, who is notified; the changed topics named when few. */
function summaryOf(checks: readonly TopicCheck[]) {
  const changed = checks.filter((c) => c.changed);
  return {
    topics: checks.length,
    changed: changed.length,
    subscribers: changed.reduce((sum, c) => sum + c.enqueued, 0),
    ...(changed.length > 0 && changed.length <= SUMMARY_NAMES ? { changed_topics: changed.map((c) => c.topic) } : {}),
  };
}

/** Up to this many changed topics are named in the start-up line (a first start changes them all). */
const SUMMARY_NAMES = 5;
