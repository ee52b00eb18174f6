/**
 * The static read endpoints: files written by the build, served from memory (or any static host)
 * with their precompressed variants. The three WebSub topics also carry a `Link` header.
 */
import { PATHS } from '../urls.ts';
import type { OpenApiExamples } from './examples.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { buildReadOperations, type ReadResource } from './read-operations.ts';

const topicNote =
  'A WebSub topic: subscribe at `/api/websub/hub` to be notified with the full content whenever it changes.';

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
        description: 'Aspects, entities (technicians, services, service areas), topics, FAQ, how the owner replies (`responses`: reply rate and median reply days by star band) and an editorial summary, derived from the reviews.',
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
