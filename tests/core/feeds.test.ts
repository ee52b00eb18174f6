import { resolveUpdated } from '../../core/content/review-history.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { FEED_ITEM_COUNT, JsonFeedSchema, renderAtomFeed, renderJsonFeed, type FeedInput } from '../../core/feeds/index.ts';
import type { PublishedBusiness, PublishedMedia, PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import jsonFeedSchema from '../fixtures/jsonfeed-1.1.schema.json' with { type: 'json' };
import { validateAtom } from '../helpers/atom-validate.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const BASE = 'https://reviews.example.test';
const urls = createServiceUrls(BASE);

const business: PublishedBusiness = {
  name: 'Bright & Warm Heating',
  url: 'https://brightwarm.example/',
  telephone: '+1 555 0100',
  address: { street: '1 Main St', locality: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
  services: [
    { id: 'furnace-repair', name: 'Furnace repair', aliases: ['furnace'] },
    { id: 'ac-install', name: 'AC installation', aliases: [] },
  ],
  technicians: [{ name: 'Michael Reyes', aliases: ['Mike'] }],
  service_areas: ['Springfield'],
};

/** `2025-06-30` minus `days`, so review i is older than review i-1. */
function dateBefore(days: number, from = '2025-06-30'): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function makeReview(i: number, overrides: Partial<PublishedReview> = {}): PublishedReview {
  const id = `review-${String(i).padStart(3, '0')}`;
  const date = dateBefore(i);
  const review: Omit<PublishedReview, 'updated'> = {
    id,
    rating: (i % 5) + 1,
    date,
    text: `Review number ${i}: the technician was on time.`,
    title: null,
    author: `Customer ${i}`,
    source: 'google',
    verified: true,
    technicians: i % 2 === 0 ? ['Michael Reyes'] : [],
    services: i % 3 === 0 ? ['furnace-repair', 'ac-install'] : [],
    service_area: i % 4 === 0 ? 'Springfield' : null,
    response: null,
    url: urls.review({ id, date }),
    media: [],
    aspects: [],
    ...overrides,
  };
  return { ...review, updated: overrides.updated ?? resolveUpdated(review, undefined) } as PublishedReview;
}

// A low surrogate before a high one: both are lone, not a pair.
const FORBIDDEN = '\u0000\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uDC00\uD800';
const NASTY_TITLE = `<b>"Great" & 'fast'</b>${FORBIDDEN}`;
const NASTY_TEXT = `Fixed <furnace> & "thermostat"; it's fine.${FORBIDDEN}\tTabbed\nNext line 😀`;

const photo = (name: string, alt: string | null, video_url: string | null = null): PublishedMedia => ({
  type: video_url === null ? 'photo' : 'video',
  alt,
  url: urls.media(`${name}-640.jpg`),
  width: 640,
  height: 480,
  size_in_bytes: 51234,
  thumbnail_url: urls.media(`${name}-320.jpg`),
  variants: [{ url: urls.media(`${name}-320.jpg`), width: 320, height: 240, mime_type: 'image/jpeg', size_in_bytes: 9000 }],
  video_url,
});
const MEDIA = [photo('00000000000000aa', 'The new furnace & "its" vent'), photo('00000000000000bb', null, 'https://video.example/v')];

/** 60 reviews newest first; the feeds carry 50 of them. */
function buildInput(): FeedInput {
  const reviews = Array.from({ length: 60 }, (_, i) => makeReview(i));
  reviews[1] = makeReview(1, { title: NASTY_TITLE, text: NASTY_TEXT, author: `Zoë <O'Neil> & "Co"` });
  // A reply later than the newest review: the feeds' `updated` must come from it.
  reviews[3] = makeReview(3, { response: { text: 'Thank you & see you soon!', date: '2025-07-15' } });
  reviews[2] = makeReview(2, { media: MEDIA });
  reviews[5] = makeReview(5, { response: { text: 'Sorry about that.', date: dateBefore(7) } });
  // Outside the 50 newest: its even later reply must not move `updated`.
  reviews[55] = makeReview(55, { response: { text: 'Late reply.', date: '2025-08-01' } });
  return { business, reviews, urls };
}

describe('renderJsonFeed', () => {
  const input = buildInput();
  const json = renderJsonFeed(input);
  const feed = JSON.parse(json);

  it('validates against the JSON Feed 1.1 schema and our own published schema', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    addFormats(ajv);
    const validate = ajv.compile(jsonFeedSchema);
    expect(validate(feed), ajv.errorsText(validate.errors)).toBe(true);
    expect(JsonFeedSchema.safeParse(feed).error).toBeUndefined();
  });

  it('the schema fixture rejects a JSON Feed 1.0 document and an item without content', () => {
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(jsonFeedSchema);
    expect(validate({ ...feed, version: 'https://jsonfeed.org/version/1' })).toBe(false);
    expect(validate({ ...feed, items: [{ id: 'x', title: 'no content' }] })).toBe(false);
    expect(validate({ ...feed, itmes: [] })).toBe(false);
  });

  it('describes the feed with URLs from createServiceUrls and a WebSub hub', () => {
    expect(feed).toMatchObject({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Bright & Warm Heating reviews',
      home_page_url: `${BASE}/`,
      feed_url: `${BASE}/api/feed.json`,
      language: 'en',
      authors: [{ name: business.name, url: business.url }],
      hubs: [{ type: 'WebSub', url: `${BASE}/api/websub/hub` }],
    });
    expect(feed.description).toContain(business.name);
  });

  it(`holds the ${FEED_ITEM_COUNT} newest reviews, newest first`, () => {
    expect(feed.items).toHaveLength(FEED_ITEM_COUNT);
    expect(feed.items.map((item: { id: string }) => item.id)).toEqual(
      input.reviews.slice(0, FEED_ITEM_COUNT).map((r) => urls.review(r)),
    );
  });

  it('maps a review to an item with dates, author, tags and the _review extension', () => {
    const review = input.reviews[3]!;
    const item = feed.items[3];
    expect(item).toEqual({
      id: urls.review(review),
      url: urls.review(review),
      title: '★★★★☆ Review by Customer 3',
      content_text: `Rating: 4 of 5\n\n${review.text}\n\nResponse from the owner (2025-07-15):\nThank you & see you soon!`,
      date_published: `${review.date}T00:00:00Z`,
      date_modified: '2025-07-15T00:00:00Z',
      authors: [{ name: 'Customer 3' }],
      tags: ['Furnace repair', 'AC installation'],
      _review: {
        about: urls.openapi,
        rating: 4,
        technicians: [],
        services: ['furnace-repair', 'ac-install'],
        service_area: null,
        source: 'google',
        response: { text: 'Thank you & see you soon!', date: '2025-07-15' },
      },
    });
  });

  it('puts the rating in every title, before the review title or "Review by" its author, and atop the content', () => {
    expect(feed.items[1].title).toBe(`★★☆☆☆ ${NASTY_TITLE}`);
    expect(feed.items[0].title).toBe('★☆☆☆☆ Review by Customer 0');
    for (const [i, item] of (feed.items as { title: string; content_text: string }[]).entries()) {
      const rating = input.reviews[i]!.rating;
      expect(item.title.startsWith('★'.repeat(rating) + '☆'.repeat(5 - rating) + ' ')).toBe(true);
      expect(item.content_text.startsWith(`Rating: ${rating} of 5\n\n`)).toBe(true);
    }
  });

  it("attaches each photo (a video's poster) at full size with its alt as title, and nothing to a review without", () => {
    expect(feed.items[2].attachments).toEqual([
      { url: urls.media('00000000000000aa-640.jpg'), mime_type: 'image/jpeg', size_in_bytes: 51234, title: 'The new furnace & "its" vent' },
      { url: urls.media('00000000000000bb-640.jpg'), mime_type: 'image/jpeg', size_in_bytes: 51234 },
    ]);
    expect(feed.items[0]).not.toHaveProperty('attachments');
  });

  it('sets date_modified only when the reply is later than the review', () => {
    expect(feed.items[0]).not.toHaveProperty('date_modified');
    // Review 5 has a reply dated before the review itself (as content may have): not a modification.
    expect(feed.items[5]).not.toHaveProperty('date_modified');
    expect(feed.items[5].content_text).toContain('Sorry about that.');
  });

  it('is compact and byte-identical when rendered twice', () => {
    expect(json).not.toMatch(/\n|": /);
    expect(renderJsonFeed(buildInput())).toBe(json);
  });

  it('renders an empty feed when there are no reviews', () => {
    const empty = JSON.parse(renderJsonFeed({ business, reviews: [], urls }));
    expect(empty.items).toEqual([]);
  });
});

type AtomLink = { '@_rel': string; '@_href': string; '@_type'?: string };
type AtomEntry = {
  id: string;
  title: { '#text': string; '@_type': string };
  updated: string;
  published: string;
  author: { name: string };
  link: AtomLink[];
  category?: { '@_term': string; '@_label': string }[];
  content: { '#text': string; '@_type': string };
};

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['entry', 'link', 'category'].includes(name),
});

describe('renderAtomFeed', () => {
  const input = buildInput();
  const xml = renderAtomFeed(input);
  const { feed } = parser.parse(xml) as {
    feed: { id: string; updated: string; link: AtomLink[]; entry: AtomEntry[]; author: { name: string }; generator: string };
  };

  it("is valid against RFC 4287's RELAX NG schema", async () => {
    expect(await validateAtom(xml)).toEqual([]);
  });

  // The validator itself: a check that cannot fail proves nothing.
  it.each([
    ['without its feed id', (x: string) => x.replace(/ {2}<id>[^<]*<\/id>\n/, ''), /Expecting an element id/],
    ['with an updated date that is not a date-time', (x: string) => x.replace(/<updated>[^<]*</, '<updated>yesterday<'), /dateTime doesn't allow value 'yesterday'/],
    ['with an unknown Atom element', (x: string) => x.replace('</title>', '</title><rating>5</rating>'), /element rating/],
    ['that is not well-formed', (x: string) => x.replace('</feed>', ''), /parser error/],
  ])('the RELAX NG check rejects a feed %s', async (_name, breakFeed, problem) => {
    const broken = breakFeed(xml);
    expect(broken).not.toBe(xml);
    expect((await validateAtom(broken)).join('\n')).toMatch(problem);
  });

  it('links each photo as an enclosure with its type, length and alt', () => {
    const enclosures = (entry: AtomEntry) => ([] as AtomLink[]).concat(entry.link).filter((l) => l['@_rel'] === 'enclosure');
    expect(enclosures(feed.entry[2]!)).toEqual([
      { '@_rel': 'enclosure', '@_type': 'image/jpeg', '@_length': '51234', '@_href': urls.media('00000000000000aa-640.jpg'), '@_title': 'The new furnace & "its" vent' },
      { '@_rel': 'enclosure', '@_type': 'image/jpeg', '@_length': '51234', '@_href': urls.media('00000000000000bb-640.jpg') },
    ]);
    expect(enclosures(feed.entry[0]!)).toEqual([]);
  });

  it('starts with the XML declaration and an Atom root', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"')).toBe(true);
  });

  it('links self, hub and home page with URLs from createServiceUrls', () => {
    expect(feed.id).toBe(urls.feedXml);
    expect(feed.link).toEqual([
      { '@_rel': 'self', '@_type': 'application/atom+xml', '@_href': `${BASE}/feed.xml` },
      { '@_rel': 'hub', '@_href': `${BASE}/api/websub/hub` },
      { '@_rel': 'alternate', '@_type': 'text/html', '@_href': `${BASE}/` },
    ]);
    expect(feed.author.name).toBe(business.name);
    expect(feed.generator).toBe('reviews-service');
  });

  it(`holds the ${FEED_ITEM_COUNT} newest reviews, each identified by its URL`, () => {
    expect(feed.entry).toHaveLength(FEED_ITEM_COUNT);
    expect(feed.entry.map((e) => e.id)).toEqual(input.reviews.slice(0, FEED_ITEM_COUNT).map((r) => urls.review(r)));
    for (const entry of feed.entry) expect(entry.link.filter((l) => l['@_rel'] !== 'enclosure')).toEqual([{ '@_rel': 'alternate', '@_type': 'text/html', '@_href': entry.id }]);
  });

  it('derives feed updated from the latest review or reply date among its entries', () => {
    // Review 3's reply (2025-07-15) is the latest change among the 50; review 55's later reply is not in the feed.
    expect(feed.updated).toBe('2025-07-15T00:00:00Z');
    expect(feed.entry[3]).toMatchObject({ updated: '2025-07-15T00:00:00Z', published: `${dateBefore(3)}T00:00:00Z` });
    expect(feed.entry[5]).toMatchObject({ updated: `${dateBefore(5)}T00:00:00Z`, published: `${dateBefore(5)}T00:00:00Z` });
    const withoutReplies = input.reviews.map((r) => ({ ...r, response: null, updated: `${r.date}T00:00:00Z` }));
    expect(parser.parse(renderAtomFeed({ ...input, reviews: withoutReplies })).feed.updated).toBe('2025-06-30T00:00:00Z');
  });

  it('maps title, author, text content and service categories', () => {
    expect(feed.entry[0]!.title).toEqual({ '#text': '★☆☆☆☆ Review by Customer 0', '@_type': 'text' });
    expect(feed.entry[3]!.author.name).toBe('Customer 3');
    expect(feed.entry[3]!.content).toEqual({
      '#text': `Rating: 4 of 5\n\n${input.reviews[3]!.text}\n\nResponse from the owner (2025-07-15):\nThank you & see you soon!`,
      '@_type': 'text',
    });
    expect(feed.entry[3]!.category).toEqual([
      { '@_term': 'furnace-repair', '@_label': 'Furnace repair' },
      { '@_term': 'ac-install', '@_label': 'AC installation' },
    ]);
    expect(feed.entry[1]!.category).toBeUndefined();
  });

  it('escapes <&"\' and drops characters XML 1.0 forbids, keeping tabs, newlines and emoji', () => {
    const entry = feed.entry[1]!;
    expect(entry.title['#text']).toBe(`★★☆☆☆ <b>"Great" & 'fast'</b>`);
    expect(entry.author.name).toBe(`Zoë <O'Neil> & "Co"`);
    expect(entry.content['#text']).toBe(`Rating: 2 of 5\n\nFixed <furnace> & "thermostat"; it's fine.\tTabbed\nNext line 😀`);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/u);
  });

  it('is byte-identical when rendered twice', () => {
    expect(renderAtomFeed(buildInput())).toBe(xml);
  });

  it('is still a valid feed with no reviews', () => {
    const { feed: empty } = parser.parse(renderAtomFeed({ business, reviews: [], urls }));
    expect(empty.updated).toBe('1970-01-01T00:00:00Z');
    expect(empty.entry).toBeUndefined();
  });
});
