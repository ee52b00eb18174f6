/**
 * The hub's TopicSource over the served build: a topic's content is exactly what GET on the topic
 * answers (identity bytes, Content-Type with its charset, ETag). Every read first asks the build store
 * to load a newer build from disk, so a publish ping that arrives after `npm run publish` swapped a
 * build in sees, and notifies, the new bytes.
 */
import { createServiceUrls } from '../../core/urls.ts';
import type { TopicSource } from '../websub/topic-source.ts';
import type { BuildStore } from './build-store.ts';

export function createBuildTopicSource(deps: { builds: BuildStore; publicUrl: string }): TopicSource {
  const urls = createServiceUrls(deps.publicUrl);
  const topicUrls = urls.topics();
  const pathOf = new Map(topicUrls.map((url) => [url, urls.pathOf(url)!]));
  return {
    topicUrls,
    async read(topicUrl) {
      const path = pathOf.get(topicUrl);
      if (path === undefined) return undefined;
      await deps.builds.refresh();
      const representation = deps.builds.current().resources.get(path);
      if (!representation) return undefined;
      return {
        body: representation.identity.body,
        contentType: representation.headers['Content-Type'] ?? 'application/octet-stream',
        etag: representation.identity.etag,
      };
    },
  };
}
