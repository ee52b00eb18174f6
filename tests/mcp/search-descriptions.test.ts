/**
 * The search filters are described in four places: the OpenAPI parameters, the MCP tool's input schema,
 * the MCP instructions and the table of docs/api.md. Each is generated from, or checked here against, the one
 * definition, SearchFiltersShape: a filter missing from any of them fails.
 */
import { readFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../core/openapi/index.ts';
import { InsightsSchema } from '../../core/schemas/insights.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SearchFiltersShape } from '../../core/schemas/search.ts';
import { PATHS } from '../../core/urls.ts';
import { connectClient, loadFixtureLive, startMcpApp, type RunningApp } from './mcp-fixture.ts';
import { createServiceUrls } from '../../core/urls.ts';

const FILTERS = Object.entries(SearchFiltersShape).map(([name, schema]) => {
  const { description } = z.toJSONSchema(schema, { io: 'input' }) as { description?: string };
  return { name, description: description ?? '' };
});

/** The fixture business lists no locations, so its search_reviews leaves `location` out (tests/locations/ list it). */
const MCP_FILTERS = FILTERS.filter((f) => f.name !== 'location');

let app: RunningApp;
let client: Client;
beforeAll(async () => {
  app = await startMcpApp({ live: await loadFixtureLive() });
  ({ client } = await connectClient(app.mcpUrl));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('the search filters, described from SearchFiltersShape', () => {
  it('are all described', () => {
    expect(FILTERS.length).toBeGreaterThanOrEqual(12);
    expect(FILTERS.filter((f) => f.description.length < 10)).toEqual([]);
  });

  it('in the OpenAPI parameters of the search', () => {
    const doc = buildOpenApiDocument({ urls: createServiceUrls('https://reviews.example.com'), insightsSchema: InsightsSchema }) as {
      paths: Record<string, { get: { parameters: { name: string; in: string; description: string }[] } }>;
    };
    // The filters, then `cursor` (paging, described in the cursor tests).
    const parameters = doc.paths[PATHS.search]!.get.parameters.filter((p) => p.in === 'query' && p.name !== 'cursor');
    expect(parameters.map((p) => ({ name: p.name, description: p.description }))).toEqual(FILTERS);
  });

  it("in the MCP tool search_reviews's input schema", async () => {
    const { tools } = await client.listTools();
    const properties = tools.find((t) => t.name === 'search_reviews')!.inputSchema.properties as Record<string, { description?: string }>;
    expect(MCP_FILTERS.map((f) => ({ name: f.name, description: properties[f.name]?.description ?? '' }))).toEqual(MCP_FILTERS);
    expect(properties).not.toHaveProperty('location');
  });

  it('in the MCP instructions: every filter by name, and the limit range', () => {
    const instructions = client.getInstructions() ?? '';
    const searchLine = instructions.split('\n').find((line) => line.startsWith('- search_reviews:')) ?? '';
    expect(MCP_FILTERS.filter((f) => f.name !== 'limit' && !searchLine.includes(f.name)).map((f) => f.name)).toEqual([]);
    expect(instructions).toContain(`(1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT})`);
  });

  it('in the table of docs/api.md', async () => {
    const doc = await readFile('docs/api.md', 'utf8');
    const start = doc.indexOf('## Search parameters');
    const section = doc.slice(start, doc.indexOf('\n\n', doc.indexOf('| parameter | meaning |', start)));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map((m) => ({ name: m[1]!, description: m[2]! }));
    expect(rows).toEqual(FILTERS);
  });
});
