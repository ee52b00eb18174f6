/**
 * The hub's TopicSource over the served build: a topic's content is exactly what GET on the topic
 * answers (identity bytes, Content-Type with its charset, ETag). Every read first asks the build store
 * to load a newer build from disk, so a publish ping that arrives after `npm run publish` swapped a
 * build in sees, and notifies, the new bytes.
 *
 * The topics are the three seed topics and the slice feeds of the served build (its `/feeds/` files),
 * so a technician added to the content becomes a topic with the build that carries their feeds, and
 * one removed stops being one. The slice feeds are re-read with `/reviews.json`, which holds every
 * review they carry: the publish pings for the seed topics check them all.
 */
import { isSliceFeedPath, type ServiceUrls } from '../../core/urls.ts';
import type { TopicSource } from '../websub/topics/source.ts';
import type { BuildStore } from './build-store.ts';

export function createBuildTopicSource(deps: { builds: BuildStore; urls: ServiceUrls }): TopicSource {
  const { urls } = deps;
  const seeds = urls.topics();
  let listed: { build: unknown; topicUrls: readonly string[]; pathOf: ReadonlyMap<string, string> } | undefined;
  const topicsOfCurrentBuild = () => {
    const build = deps.builds.current();
    if (listed?.build !== build) {
      const slicePaths = [...build.resources.keys()].filter(isSliceFeedPath).sort();
      const topicUrls = urls.topics(slicePaths);
      listed = { build, topicUrls, pathOf: new Map(topicUrls.map((url) => [url, urls.pathOf(url)!])) };
    }
    return listed;
  };
  return {
    get topicUrls() {
      return topicsOfCurrentBuild().topicUrls;
    },
    indexUrl: urls.feedsIndex,
    derivedFrom(topicUrl) {
      return topicUrl === urls.reviewsJson ? topicsOfCurrentBuild().topicUrls.filter((url) => !seeds.includes(url)) : [];
    },
    async read(topicUrl) {
      await deps.builds.refresh();
      const path = topicsOfCurrentBuild().pathOf.get(topicUrl);
      if (path === undefined) return undefined;
      const build = deps.builds.current();
      const representation = build.resources.get(path);
      if (!representation) return undefined;
      const sha256 = build.topicHashes.get(path);
      return {
        body: representation.identity.body,
        contentType: representation.headers['Content-Type'] ?? 'application/octet-stream',
        etag: representation.identity.etag,
        build: build.dir,
        ...(sha256 !== undefined && { sha256 }),
      };
    },
  };
}
