/**
 * Resources: the business and the insights as fixed resources, each review through a template. The
 * template has no list callback: listing 100k reviews as resources would flood a client, and
 * search_reviews / get_reviews_since are the way to find ids.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServerDeps } from './deps.ts';
import { createProtocolError } from './tool.ts';

export const RESOURCE_URIS = {
  business: 'reviews://business',
  insights: 'reviews://insights',
  reviewTemplate: 'reviews://reviews/{id}',
  review: (id: string) => `reviews://reviews/${encodeURIComponent(id)}`,
} as const;

/** MCP 2025-06-18 "Resources › Error Handling": resource not found. */
const RESOURCE_NOT_FOUND = -32002;
const JSON_TYPE = 'application/json';

export function registerResources(server: McpServer, deps: McpServerDeps): void {
  server.registerResource(
    'business',
    RESOURCE_URIS.business,
    {
      title: 'Business and aggregate rating',
      description: 'The business (services, technicians, service areas, contact details) and its aggregate rating.',
      mimeType: JSON_TYPE,
    },
    (uri) => {
      const { dataset } = deps.getLive();
      return jsonContents(uri.href, { business: dataset.business, aggregate_rating: dataset.aggregate_rating });
    },
  );

  server.registerResource(
    'insights',
    RESOURCE_URIS.insights,
    {
      title: 'Review insights',
      description: 'Aspect-based sentiment, entities, topics, FAQ and summary derived from the reviews (/insights.json).',
      mimeType: JSON_TYPE,
    },
    (uri) => jsonContents(uri.href, deps.getLive().insights),
  );

  server.registerResource(
    'review',
    new ResourceTemplate(RESOURCE_URIS.reviewTemplate, { list: undefined }),
    {
      title: 'Review by id',
      description: 'One verified review as JSON. Find ids with the search_reviews or get_reviews_since tools.',
      mimeType: JSON_TYPE,
    },
    (uri, variables) => {
      // A malformed escape (`%ff`) names no review: not found, rather than a raw URIError (-32603).
      const id = safeDecode(String(variables.id));
      const review = id === undefined ? undefined : deps.getLive().byId.get(id);
      if (review === undefined) throw createProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href}`, { uri: uri.href });
      return jsonContents(uri.href, review);
    },
  );
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function jsonContents(uri: string, value: unknown) {
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value) }] };
}
