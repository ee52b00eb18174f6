/**
 * The static read endpoints: files written by the build and served with validators (ETag, Last-Modified),
 * answered with 304 when the client's copy is current, and with the same headers on HEAD. The three
 * WebSub topics also carry a `Link` header naming the hub and themselves (WebSub §4).
 */
import { PATHS } from '../urls.ts';
import type { OpenApiExamples } from './examples.ts';
import { ref, type OpenApiObject } from './http-components.ts';

type StaticPath = {
  path: string;
  name: string;
  tag: string;
  summary: string;
  description: string;
  mediaType: string;
  schema: OpenApiObject;
  example?: unknown;
  topic: boolean;
};

function buildStaticPathItem(spec: StaticPath): OpenApiObject {
  const headers: OpenApiObject = {
    ETag: ref('headers', 'ETag'),
    'Last-Modified': ref('headers', 'LastModified'),
    'Cache-Control': ref('headers', 'CacheControl'),
    Vary: ref('headers', 'Vary'),
    'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
    ...(spec.topic ? { Link: ref('headers', 'TopicLink') } : {}),
  };
  const parameters = [ref('parameters', 'IfNoneMatch'), ref('parameters', 'IfModifiedSince')];
  const notModified = ref('responses', 'NotModified');
  const media: OpenApiObject = { schema: spec.schema, ...(spec.example === undefined ? {} : { example: spec.example }) };
  return {
    get: {
      operationId: `get${spec.name}`,
      tags: [spec.tag],
      summary: spec.summary,
      description: spec.description,
      parameters,
      responses: {
        '200': { description: 'OK', headers, content: { [spec.mediaType]: media } },
        '304': notModified,
      },
    },
    head: {
      operationId: `head${spec.name}`,
      tags: [spec.tag],
      summary: `${spec.summary} (headers only)`,
      description: 'The same status and headers as GET, without a body.',
      parameters,
      responses: {
        '200': { description: 'OK, no body.', headers },
        '304': notModified,
      },
    },
  };
}

const topicNote =
  'A WebSub topic: subscribe at `/api/websub/hub` to be notified with the full content whenever it changes.';

export function buildStaticPaths(examples: OpenApiExamples): Record<string, OpenApiObject> {
  const specs: StaticPath[] = [
    {
      path: PATHS.reviewsJson,
      name: 'ReviewsDataset',
      tag: 'Datasets',
      summary: 'The full reviews dataset',
      description: `Business metadata, the aggregate rating and every verified review, newest first (date descending, then id ascending). ${topicNote}`,
      mediaType: 'application/json',
      schema: ref('schemas', 'ReviewsDataset'),
      example: examples.reviewsDataset,
      topic: true,
    },
    {
      path: PATHS.insightsJson,
      name: 'Insights',
      tag: 'Datasets',
      summary: 'Aspect-based sentiment insights',
      description: 'Aspects, entities (technicians, services, service areas), topics, FAQ and an editorial summary, derived from the reviews.',
      mediaType: 'application/json',
      schema: ref('schemas', 'Insights'),
      topic: false,
    },
    {
      path: PATHS.feedJson,
      name: 'JsonFeed',
      tag: 'Feeds',
      summary: 'JSON Feed 1.1 of the 50 newest reviews',
      description: `JSON Feed version 1.1, served as \`application/json\`. Each item carries the review's structured fields in the \`_review\` extension. ${topicNote}`,
      mediaType: 'application/json',
      schema: ref('schemas', 'JsonFeed'),
      example: examples.jsonFeed,
      topic: true,
    },
    {
      path: PATHS.feedXml,
      name: 'AtomFeed',
      tag: 'Feeds',
      summary: 'Atom feed of the 50 newest reviews',
      description: `RFC 4287 Atom feed with \`<link rel="self">\` and \`<link rel="hub">\`; \`updated\` is the latest review or reply date among its entries. ${topicNote}`,
      mediaType: 'application/atom+xml',
      schema: { type: 'string', description: 'An Atom `feed` document.' },
      topic: true,
    },
    {
      path: PATHS.openapi,
      name: 'OpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1.0 document',
      description: 'The machine-readable description of the whole interface.',
      mediaType: 'application/json',
      schema: { type: 'object', description: 'An OpenAPI 3.1.0 document.' },
      topic: false,
    },
  ];
  return Object.fromEntries(specs.map((spec) => [spec.path, buildStaticPathItem(spec)]));
}
