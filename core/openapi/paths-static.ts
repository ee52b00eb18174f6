/**
 * The static read endpoints: files written by the build, served from memory (or any static host)
 * with their precompressed variants. The WebSub topics (the three seed topics and every slice feed)
 * also carry a `Link` header.
 */
import { PATHS, sliceFeedPath, type FeedSliceRef } from '../urls.ts';
import type { OpenApiExamples } from './examples.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { buildReadOperations, type ReadResource } from './read-operations.ts';

const topicNote =
  'A WebSub topic: subscribe at `/api/websub/hub` to be notified with the full content whenever it changes.';

/** The slice feeds, one path template per kind (core/feeds/slices.ts); /feeds.json lists every instance. */
const SLICES: { ref: FeedSliceRef; name: string; what: string; parameter?: { name: string; description: string } }[] = [
  { ref: { kind: 'technician', key: '{slug}' }, name: 'Technician', what: 'that mention one technician', parameter: { name: 'slug', description: "The technician's slug, as in `/technicians/{slug}/` and `/feeds.json`." } },
  { ref: { kind: 'service', key: '{id}' }, name: 'Service', what: 'about one service', parameter: { name: 'id', description: 'A service id of `/reviews.json` `business.services`.' } },
  { ref: { kind: 'aspect-complaints', key: '{aspect}' }, name: 'AspectComplaints', what: 'with a negative opinion on one aspect', parameter: { name: 'aspect', description: 'An aspect id of `/insights.json` `aspects[].id`.' } },
  { ref: { kind: 'complaints' }, name: 'Complaints', what: 'with a complaint: rated 1 or 2 stars, or with a negative opinion on any aspect' },
];

function buildSliceFeedResources(): [string, ReadResource][] {
  return SLICES.flatMap(({ ref: slice, name, what, parameter }) => {
    const parameters = parameter ? [{ name: parameter.name, in: 'path', required: true, schema: { type: 'string' }, description: parameter.description }] : undefined;
    const errors = parameter ? { '404': ref('responses', 'NotFound') } : undefined;
    const common = { tag: 'Feeds', topic: true, ...(parameters ? { parameters, errors } : {}) };
    return [
      [
        sliceFeedPath(slice, 'json'),
        {
          ...common,
          name: `${name}JsonFeed`,
          summary: `JSON Feed of the 50 newest reviews ${what}`,
          description: `Like \`/api/feed.json\`, for the reviews ${what}. Listed in \`/feeds.json\`. ${topicNote}`,
          mediaType: 'application/json',
          schema: ref('schemas', 'JsonFeed'),
        },
      ],
      [
        sliceFeedPath(slice, 'atom'),
        {
          ...common,
          name: `${name}AtomFeed`,
          summary: `Atom feed of the 50 newest reviews ${what}`,
          description: `Like \`/feed.xml\`, for the reviews ${what}. Listed in \`/feeds.json\`. ${topicNote}`,
          mediaType: 'application/atom+xml',
          schema: { type: 'string', description: 'An Atom `feed` document.' },
        },
      ],
    ] satisfies [string, ReadResource][];
  });
}

const feedsIndexSchema: OpenApiObject = {
  type: 'object',
  required: ['hub', 'feeds'],
  properties: {
    hub: { type: 'string', format: 'uri', description: 'The WebSub hub of every feed listed.' },
    feeds: {
      type: 'array',
      description: 'The main feeds first (`kind` `all`), then every technician, service, aspect complaint and all complaints.',
      items: {
        type: 'object',
        required: ['kind', 'key', 'title', 'page_url', 'atom_url', 'json_url'],
        properties: {
          kind: { type: 'string', enum: ['all', 'technician', 'service', 'aspect-complaints', 'complaints'] },
          key: { type: ['string', 'null'], description: 'The technician slug, service id or aspect id; null for `all` and `complaints`.' },
          title: { type: 'string' },
          page_url: { type: 'string', format: 'uri', description: 'The human page with the same reviews.' },
          atom_url: { type: 'string', format: 'uri' },
          json_url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
};

export function buildStaticPaths(examples: OpenApiExamples): Record<string, OpenApiObject> {
  const resources: [string, ReadResource][] = [
    [
      PATHS.reviewsJson,
      {
        name: 'ReviewsDataset',
        tag: 'Datasets',
        summary: 'The full reviews dataset',
        description: `Business metadata, the aggregate rating and every verified review, newest first (date descending, then id ascending). ${topicNote}`,
        mediaType: 'application/json',
        schema: ref('schemas', 'ReviewsDataset'),
        example: examples.reviewsDataset,
        topic: true,
      },
    ],
    [
      PATHS.insightsJson,
      {
        name: 'Insights',
        tag: 'Datasets',
        summary: 'Aspect-based sentiment insights',
        description: 'Aspects, entities (technicians, services, service areas), topics, FAQ and an editorial summary, derived from the reviews.',
        mediaType: 'application/json',
        schema: ref('schemas', 'Insights'),
      },
    ],
    [
      PATHS.feedJson,
      {
        name: 'JsonFeed',
        tag: 'Feeds',
        summary: 'JSON Feed 1.1 of the 50 newest reviews',
        description: `JSON Feed version 1.1, served as \`application/json\`. Each item carries the review's structured fields in the \`_review\` extension. ${topicNote}`,
        mediaType: 'application/json',
        schema: ref('schemas', 'JsonFeed'),
        example: examples.jsonFeed,
        topic: true,
      },
    ],
    [
      PATHS.feedXml,
      {
        name: 'AtomFeed',
        tag: 'Feeds',
        summary: 'Atom feed of the 50 newest reviews',
        description: `RFC 4287 Atom feed with \`<link rel="self">\` and \`<link rel="hub">\`; \`updated\` is the latest review or reply date among its entries. ${topicNote}`,
        mediaType: 'application/atom+xml',
        schema: { type: 'string', description: 'An Atom `feed` document.' },
        topic: true,
      },
    ],
    [
      PATHS.feedsIndex,
      {
        name: 'FeedsIndex',
        tag: 'Feeds',
        summary: 'Every feed of the service',
        description: 'The main feeds, then an Atom feed and a JSON Feed per technician, service, aspect complaint and all complaints, each a WebSub topic of `hub`.',
        mediaType: 'application/json',
        schema: feedsIndexSchema,
      },
    ],
    ...buildSliceFeedResources(),
    [
      PATHS.openapi,
      {
        name: 'OpenApiDocument',
        tag: 'Meta',
        summary: 'This OpenAPI 3.1.0 document',
        description: 'The machine-readable description of the whole interface.',
        mediaType: 'application/json',
        schema: { type: 'object', description: 'An OpenAPI 3.1.0 document.' },
      },
    ],
  ];
  return Object.fromEntries(resources.map(([path, spec]) => [path, buildReadOperations({ compressed: true, ...spec })]));
}
