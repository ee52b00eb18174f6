/**
 * JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the newest reviews. Hand-written rather than with
 * the `feed` package, whose json1() writes version 1.0. Compact and deterministic: the same input gives
 * the same bytes, so the ETag changes only when the data does.
 */
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';
import type { ServiceUrls } from '../urls.ts';
import {
  describeFeed,
  formatFeedTimestamp,
  getEntryAttachments,
  getEntryServices,
  getEntryText,
  getEntryTitle,
  getModifiedTimestamp,
  selectFeedReviews,
  type FeedInput,
} from './feed-entries.ts';
import { JSON_FEED_VERSION, type JsonFeed, type JsonFeedItem } from './json-feed-schema.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

export function renderJsonFeed(input: FeedInput): string {
  return JSON.stringify(buildJsonFeed(input));
}

/** The feed as an object, for callers that embed it (e.g. as an OpenAPI example). */
export function buildJsonFeed(input: FeedInput): JsonFeed {
  const { business, reviews, urls, t = createTranslator() } = input;
  const { title, description, jsonUrl, pageUrl } = describeFeed(input);
  return {
    version: JSON_FEED_VERSION,
    title,
    home_page_url: pageUrl,
    feed_url: jsonUrl,
    description,
    language: t.locale,
    authors: [{ name: business.name, url: business.url }],
    hubs: [{ type: 'WebSub', url: urls.hub }],
    items: selectFeedReviews(reviews).map((review) => buildItem(review, business, urls, t)),
  };
}

function buildItem(review: PublishedReview, business: PublishedBusiness, urls: ServiceUrls, t: Translator): JsonFeedItem {
  const url = urls.review(review);
  const modified = getModifiedTimestamp(review);
  return {
    id: url,
    url,
    title: getEntryTitle(review, t),
    content_text: getEntryText(review, t),
    date_published: formatFeedTimestamp(review.date),
    ...(modified === undefined ? {} : { date_modified: modified }),
    authors: [{ name: review.author }],
    tags: getEntryServices(review, business).map((s) => s.name),
    ...(review.media.length === 0 ? {} : { attachments: getEntryAttachments(review) }),
    _review: {
      about: urls.openapi,
      rating: review.rating,
      technicians: review.technicians,
      services: review.services,
      service_area: review.service_area,
      source: review.source,
      response: review.response,
      ...(review.job === undefined ? {} : { job: review.job }),
      // The customer's language and a translation beside `content_text`'s own words, only when the review has them.
      ...(review.language === undefined ? {} : { language: review.language }),
      ...(review.translation === undefined ? {} : { translation: review.translation }),
    },
  };
}
