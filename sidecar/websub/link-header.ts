/**
 * WebSub §4 discovery: a topic names its hub and its own canonical URL in one `Link` header (RFC 8288),
 * the same header a notification carries (§7). Both URLs must be absolute.
 */
export function formatTopicLinkHeader(hubUrl: string, topicUrl: string): string {
  return `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`;
}
