/**
 * What the JSON Feed and the Atom feed share: which reviews they carry and how a review reads as a feed
 * entry. Both renderers take these from here so the two formats cannot drift apart.
 *
 * Reviews carry calendar dates only; a feed needs timestamps (RFC 3339 §5.6, RFC 4287 §3.3), so a date
 * becomes midnight UTC. Nothing here reads the clock: the same reviews give the same feed.
 */
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';
import type { ServiceUrls } from '../urls.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

/** Both feeds hold the 50 newest reviews (interface.md "Limits"). */
export const FEED_ITEM_COUNT = 50;


/** Timestamp used for `updated` when there is no review at all, so the output stays deterministic. */
const EMPTY_FEED_TIMESTAMP = '1970-01-01T00:00:00Z';

/** What a feed says about itself: the main feed's, or a slice's (core/feeds/slices.ts). */
export type FeedChannel = {
  title: string;
  description: string;
  /** The Atom feed's address: its `id` and `rel="self"`. */
  atomUrl: string;
  /** The JSON Feed's `feed_url`. */
  jsonUrl: string;
  /** The human page with the same reviews: Atom `rel="alternate"`, JSON Feed `home_page_url`. */
  pageUrl: string;
};

export type FeedInput = {
  business: PublishedBusiness;
  /** The feed's reviews, newest first (core/order.ts): every published one, or a slice's. */
  reviews: readonly PublishedReview[];
  urls: ServiceUrls;
  /** A slice's channel; the main feeds' by default. */
  channel?: FeedChannel;
  /** The site's language (business.json `locale`): the feeds' own words and their `xml:lang`/`language`; English by default. */
  t?: Translator;
};

/** The reviews a feed carries: the first FEED_ITEM_COUNT of a list already sorted newest first. */
export function selectFeedReviews(reviews: readonly PublishedReview[]): readonly PublishedReview[] {
  return reviews.slice(0, FEED_ITEM_COUNT);
}

/** The channel of the main feeds, /feed.xml and /api/feed.json, or the slice's given. */
export function describeFeed({ business, urls, channel, t = createTranslator() }: FeedInput): FeedChannel {
  return (
    channel ?? {
      title: t.fill(t.m.feeds.title, { name: business.name }),
      description: t.fill(t.m.feeds.description, { count: FEED_ITEM_COUNT, name: business.name }),
      atomUrl: urls.feedXml,
      jsonUrl: urls.feedJson,
      pageUrl: urls.home,
    }
  );
}

/** `YYYY-MM-DD` as an RFC 3339 timestamp at midnight UTC. */
export function formatFeedTimestamp(date: string): string {
  return `${date}T00:00:00Z`;
}

/** JSON Feed `date_modified`: the review's `updated` when it is later than its publication, otherwise undefined. */
export function getModifiedTimestamp(review: PublishedReview): string | undefined {
  return review.updated > formatFeedTimestamp(review.date) ? review.updated : undefined;
}

/** Feed-level `updated`: the latest `updated` over the entries (core/content/review-history.ts), derived from data only. */
export function getFeedUpdatedTimestamp(reviews: readonly PublishedReview[]): string {
  let latest = '';
  for (const review of reviews) if (review.updated > latest) latest = review.updated;
  return latest === '' ? EMPTY_FEED_TIMESTAMP : latest;
}

/** "★★★★☆" for 4: the rating as feed readers can show it in a title. */
export function formatRatingStars(rating: number): string {
  return '★'.repeat(rating) + '☆'.repeat(5 - rating);
}

/**
 * The rating as stars, then the review's own title or "Review by Maria G.": feed readers show
 * only the title in their lists, so the rating has to be in it (issue 12).
 */
export function getEntryTitle(review: PublishedReview, t: Translator = createTranslator()): string {
  return `${formatRatingStars(review.rating)} ${review.title ?? t.fill(t.m.feeds.entryTitle, { author: review.author })}`;
}

/** Plain text of an entry: a "Rating: 4 of 5" line, the review, then the owner's reply when there is one. */
export function getEntryText(review: PublishedReview, t: Translator = createTranslator()): string {
  const body = `${t.fill(t.m.feeds.rating, { rating: review.rating })}\n\n${review.text}`;
  if (review.response === null) return body;
  return `${body}\n\n${t.fill(t.m.feeds.response, { date: review.response.date })}\n${review.response.text}`;
}

/** Services of a review as `{ id, name }`, with the id standing in for a name the business no longer lists. */
export function getEntryServices(
  review: PublishedReview,
  business: PublishedBusiness,
): { id: string; name: string }[] {
  return review.services.map((id) => ({ id, name: business.services.find((s) => s.id === id)?.name ?? id }));
}

/** A review's photos as feed attachments: each photo, or video poster, at full size (JPEG). */
export function getEntryAttachments(review: PublishedReview): { url: string; mime_type: 'image/jpeg'; size_in_bytes: number; title?: string }[] {
  return review.media.map((m) => ({ url: m.url, mime_type: 'image/jpeg', size_in_bytes: m.size_in_bytes, ...(m.alt === null ? {} : { title: m.alt }) }));
}
