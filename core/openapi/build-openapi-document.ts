/**
 * The OpenAPI 3.1.0 description of the whole interface, served at /.well-known/openapi.json. Schemas
 * come from the zod schemas (schema-components.ts); every URL from the ServiceUrls it is given. Where interface.md
 * says "not shown", the descriptions state the choice CONTRACT.md made. Deterministic: the same input
 * gives the same document, key order included.
 */
import type { z } from 'zod';
import type { ServiceUrls } from '../urls.ts';
import { buildOpenApiExamples } from './examples.ts';
import { headerComponents, parameterComponents, responseComponents, type OpenApiObject } from './http-components.ts';
import { buildApiPaths } from './paths-api.ts';
import { buildLogPaths } from './paths-log.ts';
import { buildProtocolPaths } from './paths-protocols.ts';
import { buildStaticPaths } from './paths-static.ts';
import { buildSchemaComponents } from './schema-components.ts';

export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '1.0.0';

const DESCRIPTION = `Verified customer reviews of one business, with aspect-based sentiment insights: JSON datasets, a JSON Feed and an Atom feed, search, an incremental endpoint by date, a Model Context Protocol server and a WebSub hub.

**No authentication.** Every endpoint is public; an \`Authorization\` header is ignored. The read endpoints send \`Access-Control-Allow-Origin: *\`.

**Choices where the interface leaves room**

- Search filters combine with AND. Every list of reviews is newest first: \`date\` descending, then \`id\` ascending.
- Search refuses, with 400 and an \`issues\` array, an unknown parameter, a repeated one, a malformed or out-of-range value, and \`since\` after \`until\`. A malformed or impossible date in \`/api/reviews/since/{date}\` is 400 too.
- Every error body is JSON, \`{ "error", "message", "issues"? }\` (schema \`Error\`), except on \`/mcp\`, which answers with JSON-RPC errors, and the witness's protocol answers (409 and 422 of \`/witness/add-checkpoint\`, in the text forms of C2SP tlog-witness). An unknown path is **404**; a method a path does not support is **405** with \`Allow\` (responses \`NotFound\` and \`MethodNotAllowed\`).
- Every read endpoint (datasets, feeds, \`since\` and search) sends a strong \`ETag\` and a \`Last-Modified\` derived from the data, and answers HEAD. \`If-None-Match\` (which takes precedence) or \`If-Modified-Since\` give 304 with an empty body; a failed \`If-Match\` or \`If-Unmodified-Since\` gives 412. Output is deterministic, so validators change only when the data does.
- The JSON topics are served as \`application/json\`, the Atom topic as \`application/atom+xml\`; all three carry \`Link: <hub>; rel="hub", <topic>; rel="self"\`.
- The WebSub hub answers an accepted request with **202** and verifies asynchronously; a request it cannot accept gets 400 with the reason in the \`Error\` body.
- \`/mcp\` takes POST only; GET (no server-initiated stream) and DELETE (stateless sessions) get 405.`;

const TAGS = [
  { name: 'Datasets', description: 'The full reviews dataset and the insights derived from it.' },
  { name: 'Feeds', description: 'The 50 newest reviews as JSON Feed 1.1 and Atom; both are WebSub topics.' },
  { name: 'Search', description: 'Filtered and incremental access to the reviews.' },
  { name: 'MCP', description: 'Model Context Protocol server over streamable HTTP.' },
  { name: 'WebSub', description: 'Hub that pushes topic changes to subscribers.' },
  { name: 'Review log', description: 'Every change of the published reviews in an append-only signed log (C2SP tlog-tiles), as static files anyone can verify, and the witness that cosigns other instances\' logs (C2SP tlog-witness).' },
  { name: 'Meta', description: 'The description of this interface.' },
];

export function buildOpenApiDocument(input: { urls: ServiceUrls; insightsSchema?: z.ZodType }): OpenApiObject {
  const { urls } = input;
  const examples = buildOpenApiExamples(urls);
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Reviews service', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: urls.base }],
    security: [],
    tags: TAGS,
    paths: { ...buildStaticPaths(examples), ...buildApiPaths(examples), ...buildProtocolPaths(), ...buildLogPaths() },
    components: {
      schemas: buildSchemaComponents({ urls, insightsSchema: input.insightsSchema }),
      headers: headerComponents,
      parameters: parameterComponents,
      responses: responseComponents,
    },
  };
}
