import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAtom } from '../helpers/atom-validate.ts';
import { createOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validate.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let validator: OpenApiValidator;

beforeAll(async () => {
  const { distDir } = await buildTestSite({ publicUrl: PUBLIC });
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
  const document = await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json();
  validator = createOpenApiValidator(document);
});
afterAll(() => sidecar?.close());

describe('live responses against the served OpenAPI document', () => {
  it.each([
    ['GET', '/reviews.json', {}],
    ['HEAD', '/reviews.json', {}],
    ['GET', '/insights.json', {}],
    ['GET', '/api/feed.json', {}],
    ['GET', '/feed.xml', {}],
    ['GET', '/.well-known/openapi.json', {}],
    ['GET', '/api/reviews/search', {}],
    ['GET', '/api/reviews/search?rating=5&limit=2&query=the', {}],
    ['GET', '/api/reviews/search?mentions_technician=mike&mentions_service=furnace-repair', {}],
    ['GET', '/api/reviews/search?aspect=punctuality&aspect_sentiment=negative&limit=3', {}],
    ['GET', '/api/reviews/search?aspect=vibes&aspect_sentiment=mixed', {}],
    ['GET', '/api/reviews/search?rating=9&bogus=1', {}],
    ['GET', '/api/reviews/since/2025-01-01', {}],
    ['GET', '/api/reviews/since/2001-01-01', {}],
    ['GET', '/api/reviews/since/2025-02-30', {}],
    ['GET', '/api/reviews/changes', {}],
    ['GET', '/api/reviews/changes?limit=2', {}],
    ['HEAD', '/api/reviews/changes?limit=2', {}],
    ['GET', '/api/reviews/changes?since=not-a-token&limit=0', {}],
    // A token of a history this content does not have (as after a rebase): 410.
    ['GET', `/api/reviews/changes?since=${Buffer.from(JSON.stringify([0, 'x', '2025-01-01T00:00:00Z', 'no-such-key'])).toString('base64url')}`, {}],
    ['GET', '/no/such/path', {}],
    ['POST', '/api/reviews/search', {}],
  ] as const)('%s %s conforms', async (method, p, headers) => {
    const res = await fetch(`${sidecar.url}${p}`, { method, headers });
    expect(await validator.validateFetchResponse(method, res, p)).toEqual([]);
  });

  it('documents the 304 of a revalidation', async () => {
    const first = await fetch(`${sidecar.url}/reviews.json`);
    const res = await fetch(`${sidecar.url}/reviews.json`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(res.status).toBe(304);
    expect(await validator.validateFetchResponse('GET', res, '/reviews.json')).toEqual([]);
  });
});

describe('served feeds', () => {
  it('serves an Atom feed that is valid against the RFC 4287 RELAX NG schema', async () => {
    const xml = await (await fetch(`${sidecar.url}/feed.xml`)).text();
    expect(await validateAtom(xml)).toEqual([]);
    expect(xml).toContain(`<link rel="hub" href="${PUBLIC}/api/websub/hub"`);
    expect(xml).toContain(`<link rel="self" type="application/atom+xml" href="${PUBLIC}/feed.xml"/>`);
  });

  it('serves a JSON Feed 1.1 that validates against the JSON Feed schema', async () => {
    const feed = await (await fetch(`${sidecar.url}/api/feed.json`)).json();
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(await readFile('tests/fixtures/jsonfeed-1.1.schema.json', 'utf8')));
    expect(validate(feed), JSON.stringify(validate.errors)).toBe(true);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.items.length).toBeLessThanOrEqual(50);
  });
});
