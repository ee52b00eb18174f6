/**
 * Where the hub reads topic content. The real source serves the built static files (the publish
 * pipeline swaps builds in); tests use a small in-memory one. A topic "changed" exactly when its bytes
 * did: the hub compares their SHA-256, the source's when it has one (the build's loading thread hashes them).
 */
export type TopicContent = {
  body: Buffer;
  /** The topic's own media type, charset included, sent as the notification's Content-Type. */
  contentType: string;
  etag: string;
  /**
   * Which build the bytes were read from (the served build's folder), when the source has builds: a
   * publish hears the verdict of its build's first recording, whoever made it (recorder.ts).
   */
  build?: string;
  /** The SHA-256 (hex) of `body` when the source has it already; else the hub hashes it. */
  sha256?: string;
};

export type TopicSource = {
  /**
   * Absolute topic URLs, from the service's `ServiceUrls.topics(…)` (core/urls.ts): the seed topics, and the
   * slice feeds of the current build (a getter: the list follows the build).
   */
  readonly topicUrls: readonly string[];
  /** Where the topics beyond the seed topics are listed (`/feeds.json`), named when a topic is refused. */
  readonly indexUrl?: string;
  /**
   * The topics derived from this one, re-read whenever it is (after its read, so from the same build):
   * every slice feed is a part of `/reviews.json`, so a publish ping for it checks the slice feeds too.
   */
  derivedFrom?(topicUrl: string): readonly string[];
  /** Current bytes of a topic; reloads a newly swapped-in build first. Undefined when the topic has no content. */
  read(topicUrl: string): Promise<TopicContent | undefined>;
};
