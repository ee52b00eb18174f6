/**
 * `components.schemas` of the OpenAPI document, generated from the zod schemas with z.toJSONSchema so
 * the document cannot disagree with what the service validates and publishes. OpenAPI 3.1 Schema Objects
 * are JSON Schema 2020-12, zod's default target.
 *
 * Conversion runs on a registry of our own (not the global one, which other modules may fill in any
 * order), so the set and order of components is fixed and the output deterministic. A nested schema
 * that carries a global `id` but is not listed here (zod puts it under `__shared.$defs`) becomes a
 * component of its own name as well.
 *
 * `ReviewList` and `SearchResult` are the REST bodies, whose reviews carry their `log_entry`
 * (ReviewWithLogEntry); the MCP tools' zod schemas of those names leave it out.
 */
import { z } from 'zod';
import { JsonFeedSchema } from '../feeds/json-feed-schema.ts';
import { ErrorBodySchema } from '../schemas/errors.ts';
import {
  AggregateRatingSchema,
  PublishedBusinessSchema,
  PublishedReviewSchema,
  RestReviewListSchema,
  ReviewsDatasetSchema,
} from '../schemas/published.ts';
import { RestSearchResultSchema } from '../schemas/search.ts';
import { ChangesResultSchema } from '../schemas/changes.ts';
import { TechnicianRankingSchema } from '../schemas/ranking.ts';
import { PublishVerdictSchema } from '../schemas/publish-verdict.ts';
import type { ServiceUrls } from '../urls.ts';
import { createWebSubHubRequestSchema, JsonRpcRequestSchema, JsonRpcResponseSchema } from './protocol-schemas.ts';

export type JsonSchema = { [key: string]: unknown };

const COMPONENT_REF_PREFIX = '#/components/schemas/';
const SHARED_KEY = '__shared';

/** Stands in for the insights schema until the insights work provides one. */
const InsightsPlaceholderSchema = z.looseObject({}).meta({
  description: 'Aspect-based sentiment insights: aspects, entities, topics, FAQ and summary.',
});

export function buildSchemaComponents(input: { urls: ServiceUrls; insightsSchema?: z.ZodType }): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const entries: [string, z.ZodType][] = [
    ['Review', PublishedReviewSchema],
    ['Business', PublishedBusinessSchema],
    ['AggregateRating', AggregateRatingSchema],
    ['ReviewsDataset', ReviewsDatasetSchema],
    ['ReviewList', RestReviewListSchema],
    ['SearchResult', RestSearchResultSchema],
    ['TechnicianRanking', TechnicianRankingSchema],
    ['Changes', ChangesResultSchema],
    ['Error', ErrorBodySchema],
    ['JsonFeed', JsonFeedSchema],
    ['Insights', input.insightsSchema ?? InsightsPlaceholderSchema],
    ['JsonRpcRequest', JsonRpcRequestSchema],
    ['JsonRpcResponse', JsonRpcResponseSchema],
    ['WebSubHubRequest', createWebSubHubRequestSchema(input.urls.topics(), input.urls.feedsIndex)],
    ['WebSubPublishVerdict', PublishVerdictSchema],
  ];
  for (const [id, schema] of entries) registry.add(schema, { id });

  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `${COMPONENT_REF_PREFIX}${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };

  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === SHARED_KEY) continue;
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    components[id] = rest;
  }
  const shared = (schemas[SHARED_KEY]?.['$defs'] ?? {}) as Record<string, JsonSchema>;
  for (const [id, schema] of Object.entries(shared)) {
    if (id in components) throw new Error(`Schema id "${id}" names two different schemas`);
    components[id] = schema;
  }
  return rewriteSharedRefs(components) as Record<string, JsonSchema>;
}

/** Points `#/components/schemas/__shared#/$defs/X` (zod's shared-defs reference) at the component X. */
function rewriteSharedRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteSharedRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof child === 'string'
        ? child.replace(/^.*#\/\$defs\//, COMPONENT_REF_PREFIX)
        : rewriteSharedRefs(child);
  }
  return out;
}
