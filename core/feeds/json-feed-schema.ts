/**
 * The JSON Feed 1.1 document this service publishes at /api/feed.json (https://jsonfeed.org/version/1.1).
 * It describes our output, which is a strict subset of what the format allows: the OpenAPI document is
 * generated from it, and tests/fixtures/jsonfeed-1.1.schema.json checks the output against the format itself.
 *
 * The `_review` custom object (JSON Feed §"Extensions": a name starting with `_` and a letter; readers that
 * do not know it ignore it) carries the review's structured fields, so a reader need not parse `content_text`.
 */
import { z } from 'zod';
import { PublishedReviewSchema } from '../schemas/published.ts';

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

const TimestampSchema = z.iso.datetime().meta({ description: 'RFC 3339 timestamp; reviews carry dates, so midnight UTC.' });

export const JsonFeedAuthorSchema = z.object({
  name: z.string(),
  url: z.url().optional(),
});

export const JsonFeedReviewExtensionSchema = PublishedReviewSchema.pick({
  rating: true,
  technicians: true,
  services: true,
  service_area: true,
  source: true,
  response: true,
  job: true,
  language: true,
  translation: true,
})
  .extend({
    about: z.url().meta({ description: 'Where the extension is described: this service\'s OpenAPI document.' }),
  })
  .meta({ description: 'Structured fields of the review (a JSON Feed custom object).' });

export const JsonFeedItemSchema = z.object({
  id: z.string().meta({ description: "The review's permanent URL, also used as its id." }),
  url: z.url(),
  title: z.string().meta({ description: 'The rating as stars, then the review title or "Review by" its author, e.g. "★★★★★ Review by Maria G.".' }),
  content_text: z.string().meta({ description: "A \"Rating: 4 of 5\" line, the review text, then the owner's reply when there is one." }),
  date_published: TimestampSchema,
  date_modified: TimestampSchema.optional().meta({ description: 'Date of the owner reply, when later than the review.' }),
  authors: z.array(JsonFeedAuthorSchema).min(1),
  tags: z.array(z.string()).meta({ description: 'Names of the services the review mentions.' }),
  attachments: z
    .array(
      z.object({
        url: z.url(),
        mime_type: z.literal('image/jpeg'),
        size_in_bytes: z.int().min(1),
        title: z.string().optional().meta({ description: 'The alt text, when there is one.' }),
      }),
    )
    .optional()
    .meta({ description: "The customer's photos (a video's poster image) at full size; absent when the review has none." }),
  _review: JsonFeedReviewExtensionSchema,
});

export const JsonFeedSchema = z
  .object({
    version: z.literal(JSON_FEED_VERSION),
    title: z.string(),
    home_page_url: z.url(),
    feed_url: z.url(),
    description: z.string(),
    language: z.string(),
    authors: z.array(JsonFeedAuthorSchema).min(1),
    hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.url() })),
    items: z.array(JsonFeedItemSchema).max(50).meta({ description: 'The 50 newest reviews, newest first.' }),
  })
  .meta({ description: 'JSON Feed 1.1 of the 50 newest reviews.' });

export type JsonFeed = z.infer<typeof JsonFeedSchema>;
export type JsonFeedItem = z.infer<typeof JsonFeedItemSchema>;
