export { FEED_ITEM_COUNT, type FeedChannel, type FeedInput } from './feed-entries.ts';
export { buildFeedsIndex, describeSliceChannel, isComplaint, listFeedSlices, selectSliceReviews, type FeedSlice } from './slices.ts';
export { JSON_FEED_VERSION, JsonFeedSchema, type JsonFeed, type JsonFeedItem } from './json-feed-schema.ts';
export { buildJsonFeed, renderJsonFeed } from './render-json-feed.ts';
export { ATOM_NAMESPACE, renderAtomFeed } from './render-atom-feed.ts';
