/**
 * GET and HEAD of a readable resource: every read endpoint (static files, search, since) answers with
 * a strong ETag and a Last-Modified derived from the data, evaluates preconditions in the order of
 * RFC 9110 §13.2.2 (If-Match / If-Unmodified-Since → 412; If-None-Match / If-Modified-Since → 304),
 * and answers HEAD with the headers of GET and no body.
 */
import { ref, type OpenApiObject } from './http-components.ts';

export type ReadResource = {
  /** Operation ids are `get<name>` and `head<name>`. */
  name: string;
  tag: string;
  summary: string;
  description: string;
  /** Path and query parameters; the conditional request headers are added here. */
  parameters?: OpenApiObject[];
  mediaType: string;
  schema: OpenApiObject;
  example?: unknown;
  /** A WebSub topic: `Link` names the hub and the topic (WebSub §4). */
  topic?: boolean;
  /** Paged: a `Link: rel="next"` header when more results follow. */
  paged?: boolean;
  /** Served in precompressed variants too, so `Vary: Accept-Encoding` is sent. */
  compressed?: boolean;
  /** Responses besides 200, 304 and 412, e.g. a 400 for a bad parameter. */
  errors?: Record<string, OpenApiObject>;
};

const conditionalParameters = ['IfNoneMatch', 'IfModifiedSince', 'IfMatch', 'IfUnmodifiedSince'].map((name) =>
  ref('parameters', name),
);

export function buildReadOperations(spec: ReadResource): { get: OpenApiObject; head: OpenApiObject } {
  const headers: OpenApiObject = {
    ETag: ref('headers', 'ETag'),
    'Last-Modified': ref('headers', 'LastModified'),
    'Cache-Control': ref('headers', 'CacheControl'),
    'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
    ...(spec.compressed ? { Vary: ref('headers', 'Vary') } : {}),
    ...(spec.topic ? { Link: ref('headers', 'TopicLink') } : {}),
    ...(spec.paged ? { Link: ref('headers', 'NextLink') } : {}),
  };
  const parameters = [...(spec.parameters ?? []), ...conditionalParameters];
  const media: OpenApiObject = { schema: spec.schema, ...(spec.example === undefined ? {} : { example: spec.example }) };
  const otherResponses = {
    '304': ref('responses', 'NotModified'),
    ...spec.errors,
    '412': ref('responses', 'PreconditionFailed'),
  };
  return {
    get: {
      operationId: `get${spec.name}`,
      tags: [spec.tag],
      summary: spec.summary,
      description: spec.description,
      parameters,
      responses: { '200': { description: 'OK', headers, content: { [spec.mediaType]: media } }, ...otherResponses },
    },
    head: {
      operationId: `head${spec.name}`,
      tags: [spec.tag],
      summary: `${spec.summary} (headers only)`,
      description: 'The status and headers GET would give, without a body.',
      parameters,
      responses: { '200': { description: 'OK, no body.', headers }, ...otherResponses },
    },
  };
}
