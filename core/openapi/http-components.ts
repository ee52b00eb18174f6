/**
 * Reusable HTTP parts of the OpenAPI document: response headers, request header parameters and the
 * shared responses (304, 400, 404, 405, 412). Conditional requests follow RFC 9110 §13: a strong ETag
 * from the bytes, If-None-Match compared weakly and taking precedence over If-Modified-Since, If-Match
 * compared strongly, and a 304 that repeats the validators and caching headers of the 200 (§15.4.5).
 */
import type { JsonSchema } from './schema-components.ts';

export type OpenApiObject = { [key: string]: unknown };

export const ref = (kind: 'schemas' | 'headers' | 'parameters' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

// `required` lives in the component: OpenAPI 3.1 ignores siblings of `$ref` other than summary and description.
const stringHeader = (description: string, schema: JsonSchema = {}, required = false): OpenApiObject => ({
  description,
  ...(required ? { required: true } : {}),
  schema: { type: 'string', ...schema },
});

const HTTP_DATE_PATTERN = '^[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$';

export const headerComponents: Record<string, OpenApiObject> = {
  ETag: stringHeader(
    'Strong validator derived from the bytes of the body; it changes only when the data does. Each precompressed variant has its own.',
    { pattern: '^(W/)?"[^"]*"$' },
    true,
  ),
  LastModified: stringHeader(
    'Derived from the data (the latest review or reply date), not from the build time, so it is stable across rebuilds of unchanged content.',
    { pattern: HTTP_DATE_PATTERN },
    true,
  ),
  CacheControl: stringHeader('Cache lifetime for browsers and CDNs, e.g. `public, max-age=60, stale-while-revalidate=300`.'),
  Vary: stringHeader('`Accept-Encoding`: brotli and gzip variants are served from the same URL.'),
  AccessControlAllowOrigin: stringHeader('`*`: the read endpoints are public and may be called from any web page.', {
    const: '*',
  }),
  TopicLink: stringHeader(
    'WebSub discovery (RFC 8288): `<{base_url}/api/websub/hub>; rel="hub", <topic URL>; rel="self"`.',
    { pattern: 'rel="hub"' },
    true,
  ),
  NextLink: stringHeader(
    'Present when more results follow (RFC 8288): `<{base_url}/api/reviews/search?…&cursor=…>; rel="next"`, the same filters with `cursor` set to `next_cursor`.',
    { pattern: 'rel="next"' },
  ),
  Allow: stringHeader('The methods the path supports, e.g. `GET, HEAD`.', {}, true),
  RetryAfter: stringHeader('Seconds to wait before trying again.', { pattern: '^\\d+$' }),
  McpSessionId: stringHeader('Session id set by the `initialize` response; send it on every later request.'),
};

export const parameterComponents: Record<string, OpenApiObject> = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'ETag(s) the client holds. When one matches (weak comparison) the answer is 304; takes precedence over If-Modified-Since.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description: 'HTTP-date; 304 when the data has not changed since. Ignored when If-None-Match is sent.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'ETag(s) compared strongly, or `*`; 412 when none matches.',
    schema: { type: 'string' },
  },
  IfUnmodifiedSince: {
    name: 'If-Unmodified-Since',
    in: 'header',
    required: false,
    description: 'HTTP-date; 412 when the data changed after it. Ignored when If-Match is sent.',
    schema: { type: 'string' },
  },
  McpSessionId: {
    name: 'Mcp-Session-Id',
    in: 'header',
    required: false,
    description: 'The session id returned by `initialize`; required on every request after it.',
    schema: { type: 'string', minLength: 1 },
  },
  McpProtocolVersion: {
    name: 'MCP-Protocol-Version',
    in: 'header',
    required: false,
    description: 'Negotiated MCP protocol version, sent after initialization (e.g. `2025-06-18`). An unsupported value gives 400.',
    schema: { type: 'string' },
    example: '2025-06-18',
  },
};

const errorContent = (example: OpenApiObject) => ({
  'application/json': { schema: ref('schemas', 'Error'), example },
});

export const responseComponents: Record<string, OpenApiObject> = {
  NotModified: {
    description: 'Not Modified: the validator matches the current data. Empty body.',
    headers: {
      ETag: ref('headers', 'ETag'),
      'Last-Modified': ref('headers', 'LastModified'),
      'Cache-Control': ref('headers', 'CacheControl'),
      'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
      Vary: ref('headers', 'Vary'),
    },
  },
  PreconditionFailed: {
    description: 'If-Match or If-Unmodified-Since does not hold for the current data.',
    content: errorContent({ error: 'precondition_failed', message: 'The resource does not match the request preconditions.' }),
  },
  BadRequest: {
    description: 'The request is invalid; `issues` lists every problem with where it is.',
    content: errorContent({
      error: 'invalid_parameters',
      message: 'The search parameters are not valid; see issues.',
      issues: [{ path: ['limit'], message: 'must be an integer from 1 to 100', code: 'too_big' }],
    }),
  },
  NotFound: {
    description: 'No resource at this path. Returned for every unknown path, always as a JSON error body.',
    content: errorContent({
      error: 'not_found',
      message: 'Nothing at /reviews.xml. The API is described at /.well-known/openapi.json.',
    }),
  },
  MethodNotAllowed: {
    description: 'The path exists but does not support this method (e.g. POST on a read endpoint); `Allow` lists the methods it does.',
    headers: { Allow: ref('headers', 'Allow') },
    content: errorContent({ error: 'method_not_allowed', message: 'This path answers GET, HEAD only.' }),
  },
};
