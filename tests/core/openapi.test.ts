import { execFile } from 'node:child_process';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeInsights } from '../../core/insights/compute-insights.ts';
import { InsightsSchema } from '../../core/schemas/insights.ts';
import { buildOpenApiExamples } from '../../core/openapi/examples.ts';
import { buildOpenApiDocument } from '../../core/openapi/index.ts';
import { ErrorCodeSchema } from '../../core/schemas/errors.ts';
import { SearchFiltersShape } from '../../core/schemas/search.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { loadDefaultModel, loadFixtureBusiness, loadFixtureReviews } from '../insights/load-fixtures.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const PUBLIC_URL = 'https://reviews.acme.test';
const urls = createServiceUrls(PUBLIC_URL);

type Node = { [key: string]: any };
// As the build serves it: with the insights schema.
const doc = buildOpenApiDocument({ urls, insightsSchema: InsightsSchema }) as Node;

/** The slice feeds (issue 23), one path template per kind and format. */
const SLICE_FEEDS = ['technicians/{slug}', 'services/{id}', 'complaints/{aspect}', 'complaints'].flatMap((p) => [`/feeds/${p}.xml`, `/feeds/${p}.json`]);

describe('buildOpenApiDocument', () => {
  it('is OpenAPI 3.1.0, API version 1.0.0, served from the public URL', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: PUBLIC_URL }]);
  });

  it('describes every path and method of the interface', () => {
    const operations = Object.entries(doc.paths as Node).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        ...[
          '/reviews.json',
          '/insights.json',
          '/api/feed.json',
          '/feed.xml',
          '/.well-known/openapi.json',
          '/api/reviews/search',
          '/api/technicians/rank',
          '/api/reviews/since/{date}',
          '/api/reviews/changes',
          ...SLICE_FEEDS,
          '/feeds.json',
          '/log/checkpoint',
          '/log/vkey',
          '/log/policy',
          '/log/proof/{id}.tlog-proof',
          '/log/tile/{level}/{index}',
          '/log/tile/{level}/{index}.p/{width}',
          '/witness/vkey',
        ].flatMap((p) => [`GET ${p}`, `HEAD ${p}`]),
        'POST /witness/add-checkpoint',
        'GET /witness/{originHash}/checkpoint',
        'POST /mcp',
        // Declined by this server (405), as the MCP transport allows; documented so clients know.
        'GET /mcp',
        'DELETE /mcp',
        'POST /api/websub/hub',
      ].sort(),
    );
  });

  it('generates each search parameter from the filter schema, with type, range, default and description', () => {
    const query = (doc.paths['/api/reviews/search'].get.parameters as Node[]).filter((p) => p.in === 'query');
    expect(query.map((p) => p.name)).toEqual([...Object.keys(SearchFiltersShape), 'cursor']);
    expect(query.at(-1)).toMatchObject({ name: 'cursor', required: false, schema: { type: 'string' } });
    const params = query.slice(0, -1);
    for (const p of params) {
      expect(p).toMatchObject({ in: 'query', required: false });
      expect(p.description, p.name).toMatch(/\w/);
    }
    const byName = Object.fromEntries(params.map((p) => [p.name, p.schema]));
    expect(byName.rating).toEqual({ type: 'integer', minimum: 1, maximum: 5 });
    expect(byName.min_rating).toEqual({ type: 'number', minimum: 1, maximum: 5 });
    expect(byName.limit).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(byName.since).toMatchObject({ type: 'string', format: 'date' });
    expect(byName.until).toMatchObject({ type: 'string', format: 'date' });
    expect(Object.keys(doc.paths['/api/reviews/search'].get.responses)).toEqual(['200', '304', '400', '412']);
  });

  it('gives the change log its parameters, 400 for a bad or altered token and 410 for one from before the review log', () => {
    const changes = doc.paths['/api/reviews/changes'].get;
    expect(Object.keys(changes.responses)).toEqual(['200', '304', '400', '410', '412']);
    const query = (changes.parameters as Node[]).filter((p) => p.in === 'query');
    expect(Object.fromEntries(query.map((p) => [p.name, p.schema]))).toEqual({ since: { type: 'string', maxLength: 400 }, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } });
    expect(changes.description).toContain('/reviews.json');
  });

  it('gives since, MCP and the hub the statuses and headers the interface and contract name', () => {
    const since = doc.paths['/api/reviews/since/{date}'].get;
    expect(Object.keys(since.responses)).toEqual(['200', '304', '400', '412']);
    expect(since.parameters[0]).toMatchObject({ name: 'date', in: 'path', required: true, schema: { format: 'date' } });

    const mcp = doc.paths['/mcp'].post;
    expect(Object.keys(mcp.responses)).toEqual(['200', '202', '400', '403', '404', '406', '413', '415']);
    expect(Object.keys(doc.paths['/mcp'].get.responses)).toEqual(['405']);
    const mcpHeaders = mcp.parameters.map((p: Node) => doc.components.parameters[p.$ref.split('/').pop()].name);
    expect(mcpHeaders).toEqual(['Mcp-Session-Id', 'MCP-Protocol-Version']);
    expect(mcp.responses['200'].headers).toHaveProperty('Mcp-Session-Id');

    const hub = doc.paths['/api/websub/hub'].post;
    expect(Object.keys(hub.responses)).toEqual(['202', '400', '413', '429', '503']);
    expect(hub.requestBody.content).toHaveProperty(['application/x-www-form-urlencoded']);
    const form = doc.components.schemas.WebSubHubRequest;
    expect(Object.keys(form.properties).sort()).toEqual(
      ['hub.callback', 'hub.lease_seconds', 'hub.mode', 'hub.secret', 'hub.topic', 'hub.url'].sort(),
    );
    expect(form.properties['hub.mode'].enum).toEqual(['subscribe', 'unsubscribe', 'publish']);
    expect(form.properties['hub.topic'].format).toBe('uri');
    for (const topic of [...urls.topics(), urls.feedsIndex]) expect(form.properties['hub.topic'].description).toContain(topic);

    // C2SP tlog-witness: the cosignature and the 422 reason in plain text, the latest size as text/x.tlog.size.
    const witness = doc.paths['/witness/add-checkpoint'].post;
    expect(Object.keys(witness.responses)).toEqual(['200', '400', '403', '404', '409', '413', '422', '429', '503']);
    expect(Object.keys(witness.responses['409'].content)).toEqual(['text/x.tlog.size']);
    expect(Object.keys(witness.responses['422'].content)).toEqual(['text/plain']);
    expect(Object.keys(witness.requestBody.content)).toEqual(['text/plain']);
  });

  it('gives every read endpoint ETag, Last-Modified, 304 and 412 on GET and HEAD, and Link on the three topics and the paged search only', () => {
    const reads = Object.entries(doc.paths as Node).filter(([path]) => !['/mcp', '/api/websub/hub', '/witness/add-checkpoint', '/witness/vkey', '/witness/{originHash}/checkpoint'].includes(path));
    // + 1: the technician ranking; + 1: the change log; + 6: the review log's checkpoint, vkey, policy, review proofs, tiles and partial tiles.
    expect(reads).toHaveLength(7 + SLICE_FEEDS.length + 1 + 1 + 1 + 6);
    for (const [path, item] of reads) {
      for (const op of [item.get, item.head]) {
        const ok = op.responses['200'];
        expect(ok.headers.ETag, path).toEqual({ $ref: '#/components/headers/ETag' });
        expect(ok.headers['Last-Modified'], path).toEqual({ $ref: '#/components/headers/LastModified' });
        expect(op.responses['304'], path).toEqual({ $ref: '#/components/responses/NotModified' });
        expect(op.responses['412'], path).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
        expect(op.parameters.map((p: Node) => p.$ref).filter(Boolean)).toContain('#/components/parameters/IfNoneMatch');
        expect('Link' in ok.headers, path).toBe(['/feed.xml', '/api/feed.json', '/reviews.json', '/api/reviews/search', '/api/reviews/changes', '/log/checkpoint', ...SLICE_FEEDS].includes(path));
        if (path === '/api/reviews/search' || path === '/api/reviews/changes') expect(ok.headers.Link).toEqual({ $ref: '#/components/headers/NextLink' });
      }
      expect(item.head.responses['200'].content, path).toBeUndefined();
    }
    expect(doc.paths['/feed.xml'].get.responses['200'].content).toHaveProperty(['application/atom+xml']);
    expect(doc.components.headers.ETag.required).toBe(true);
  });

  it('states the choices the interface leaves open', () => {
    const text = JSON.stringify(doc);
    for (const phrase of ['combine with AND', 'newest first', 'unknown parameter', '**404**', '**405**', '**202**']) {
      expect(text).toContain(phrase);
    }
  });

  it('has the named schema components, with a loose Insights placeholder unless a schema is given', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Review', 'Business', 'AggregateRating', 'ReviewsDataset', 'ReviewList', 'SearchResult', 'Error', 'JsonFeed', 'Insights']),
    );
    expect(doc.components.schemas.Insights).toMatchObject({ type: 'object', additionalProperties: {} });
    const Aspect = z.object({ aspect: z.string(), score: z.number() }).meta({ id: 'OpenApiTestAspect' });
    const withInsights = buildOpenApiDocument({ urls, insightsSchema: z.object({ aspects: z.array(Aspect) }) }) as Node;
    expect(withInsights.components.schemas.Insights.properties.aspects.items).toEqual({ $ref: '#/components/schemas/OpenApiTestAspect' });
    expect(withInsights.components.schemas.OpenApiTestAspect.required).toEqual(['aspect', 'score']);
  });

  it('lists every error code in the Error schema', () => {
    expect(doc.components.schemas.Error.properties.error.enum).toEqual(ErrorCodeSchema.options);
    expect(ErrorCodeSchema.options).toEqual(expect.arrayContaining(['invalid_parameters', 'not_found', 'rate_limited', 'internal_error']));
  });

  it('is deterministic', () => {
    expect(JSON.stringify(buildOpenApiDocument({ urls, insightsSchema: InsightsSchema }))).toBe(JSON.stringify(doc));
  });

  it('has no $ref that points nowhere', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) {
      const target = ref.split('/').reduce<any>((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
      expect(target, ref).toBeDefined();
    }
  });
});

describe('OpenAPI document lint (redocly, recommended rules, offline)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has no errors, and warnings only from rules that would ask for things the service does not do', async () => {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--format=json', file], { env, cwd: dir }).catch(
      (e: { stdout: string }) => e,
    );
    const { problems } = JSON.parse(run.stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const describe = (p: (typeof problems)[number]) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`;
    expect(problems.filter((p) => p.severity === 'error').map(describe)).toEqual([]);
    // The data has no licence chosen yet. GET and DELETE /mcp are documented only to say they are declined
    // (405). MethodNotAllowed describes undocumented methods, which no operation can reference
    // (tests/helpers/openapi-validate.ts applies it); NotFound is the slice feeds' unknown slug.
    expect(problems.map(describe)).toEqual([
      expect.stringMatching(/^info-license /),
      expect.stringMatching(/^operation-2xx-response #\/paths\/~1mcp\/get\/responses:/),
      expect.stringMatching(/^operation-2xx-response #\/paths\/~1mcp\/delete\/responses:/),
      expect.stringMatching(/^no-unused-components #\/components\/responses\/MethodNotAllowed:/),
    ]);
  });
});

describe('OpenAPI schemas and examples', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  addFormats(ajv);
  for (const keyword of ['example', 'discriminator', 'xml', 'externalDocs']) ajv.addKeyword(keyword);
  // The components as `$defs` of one schema resource, so strict mode sees only JSON Schema keywords.
  const pointAtDefs = (schema: unknown, base = '') =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${base}#/$defs/`));
  ajv.addSchema({ $id: 'https://openapi.invalid/doc', $defs: pointAtDefs(doc.components.schemas) });
  const validatorOf = (name: string) => ajv.getSchema(`https://openapi.invalid/doc#/$defs/${name}`)!;

  const examples = buildOpenApiExamples(urls);
  const review = examples.reviewsDataset.reviews[0]!;
  const insights = computeInsights({ reviews: loadFixtureReviews(), model: loadDefaultModel(), business: loadFixtureBusiness() });
  const aspect = insights.aspects.find((a) => a.quotes.length > 0)!;
  const technician = insights.entities.technicians[0]!;
  const topic = {
    phrase: 'water heater', reviews: 3, positive: 2, neutral: 0, negative: 1, net_score: 33, average_rating: 4,
    aspects: ['quality'], review_ids: ['r-1', 'r-2', 'r-3'], filter: { query: 'water heater' },
  };
  const ratings = { '1': 0, '2': 1, '3': 0, '4': 2, '5': 9 };
  const jobFigures = { jobs: 20, reviewed: 12, share: 0.6, tied: ratings, untied: ratings, tied_before: 11, by_month: [{ month: '2026-03', jobs: 20, reviewed: 12, share: 0.6, tied: ratings, untied: ratings }] };
  const samples: Record<string, [valid: unknown, invalid: unknown]> = {
    Review: [review, { ...review, rating: 6 }],
    Business: [examples.reviewsDataset.business, { ...examples.reviewsDataset.business, services: [{ id: 'x' }] }],
    AggregateRating: [examples.reviewsDataset.aggregate_rating, { ...examples.reviewsDataset.aggregate_rating, best_rating: 10 }],
    Location: [{ id: 'boise', name: 'Boise', service_areas: ['Boise'] }, { id: 'boise' }],
    LocationRating: [{ id: 'boise', name: 'Boise', aggregate_rating: examples.reviewsDataset.aggregate_rating }, { id: 'boise', name: 'Boise', aggregate_rating: null }],
    ReviewsDataset: [examples.reviewsDataset, { ...examples.reviewsDataset, reviews: [{ ...review, date: '2024-02-30' }] }],
    ReviewList: [examples.reviewList, { ...examples.reviewList, count: -1 }],
    ReviewWithLogEntry: [examples.reviewList.reviews[0], { ...examples.reviewList.reviews[0], log_entry: { index: 0, checkpoint_url: urls.absolute('/log/checkpoint') } }],
    SearchedReview: [{ ...examples.reviewList.reviews[0], matched_in: 'translation' }, { ...examples.reviewList.reviews[0], matched_in: 'text' }],
    Translation: [{ text: 'Fast and honest.', title: null, language: 'en', by: 'google' }, { text: 'Fast and honest.', language: 'en', by: 'google' }],
    ReviewLogEntry: [examples.reviewList.reviews[0]!.log_entry, { ...examples.reviewList.reviews[0]!.log_entry, index: -1 }],
    SearchResult: [examples.searchResult, { ...examples.searchResult, limit: 101 }],
    Error: [examples.badDate, { message: 'no error code' }],
    JsonFeed: [examples.jsonFeed, { ...examples.jsonFeed, version: 'https://jsonfeed.org/version/1' }],
    Insights: [insights, { ...insights, summary: 'Mostly praise.' }],
    Media: [review.media[0], { ...review.media[0], type: 'audio' }],
    ReviewAspect: [review.aspects[0], { aspect: 'price', polarity: 'positive', score: 2 }],
    AspectPolarity: ['neutral', 'mixed'],
    EvidenceSpan: [review.aspects[0]!.evidence[0], { field: 'author', start: 0, end: 4 }],
    AspectInsight: [aspect, { ...aspect, net_score: 101 }],
    CountRange: [{ value: 48, low: 40, high: 57 }, { value: -1, low: 0, high: 2 }],
    CountEstimate: [
      { mentions: { value: 48, low: 40, high: 57 }, positive: { value: 30, low: 24, high: 37 }, negative: { value: 12, low: 8, high: 17 } },
      { mentions: { value: 48, low: 40, high: 57 } },
    ],
    AspectAccuracy: [
      { detection: { recall: 0.8, false_alarm_rate: 0.05, n: 609, mentions: 120 }, polarity: { accuracy: 0.93, n: 96 } },
      { detection: { recall: 1.5, false_alarm_rate: 0.05, n: 609, mentions: 120 }, polarity: { accuracy: 0.93, n: 96 } },
    ],
    InsightQuote: [aspect.quotes[0], { ...aspect.quotes[0], rating: 0 }],
    EntityInsight: [technician, { ...technician, reviews: -1 }],
    InsightTopic: [topic, { ...topic, phrase: 3 }],
    FaqEntry: [insights.faq[0], { ...insights.faq[0], source: 'guess' }],
    InsightsSummary: [insights.summary, { ...insights.summary, stale: 'no' }],
    JobTie: [{ entry: 412, week: '2026-W11', service: 'water-heater', logged_before_review: true }, { entry: -1, week: '2026-W11', service: 'water-heater', logged_before_review: true }],
    JobFigures: [jobFigures, { ...jobFigures, share: 'most' }],
    TechnicianRanking: [
      {
        filters: { mentions_service: 'water-heater' },
        positive_means: 'rated_4_or_5',
        reviews: 3,
        technicians: [{ technician: 'Mike', rank: null, reviews: 3, mean_rating: 4.67, positive: 3, positive_share: 1, small_sample: true, filter: { mentions_technician: 'Mike' } }],
      },
      { filters: {}, positive_means: 'rated_4_or_5', reviews: 3, technicians: [{ technician: 'Mike', rank: 0 }] },
    ],
    InsightsResponses: [insights.responses, { ...insights.responses, bands: [{ band: '1-3', reviews: 1, replied: 1, reply_rate: 1, median_reply_days: 0 }] }],
    Change: [{ id: 'r-1', time: '2025-03-01T10:00:00Z', kind: 'removed', entry: 4, reason: 'spam' }, { id: 'r-1', time: '2025-03-01T10:00:00Z', kind: 'removed', entry: 4, reason: 'rude' }],
    Changes: [
      {
        changes: [
          { id: review.id, time: '2025-03-01T10:00:00Z', kind: 'added', entry: 0, review },
          { id: 'r-2', time: '2025-03-01T10:00:00Z', kind: 'changed', entry: 1, change: 'correction', previous_rating: 2, words_changed: true },
          { id: 'r-0', time: '2025-03-02T08:00:00Z', kind: 'removed', entry: 2, reason: 'other' },
        ],
        count: 3,
        limit: 100,
        next_token: '2.kQ3vWm0a',
        has_more: false,
      },
      { changes: [{ id: 'r-0', time: '2025-03-02T08:00:00Z', kind: 'deleted', entry: 0 }], count: 1, limit: 100, next_token: null, has_more: false },
    ],
    JsonRpcRequest: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    JsonRpcResponse: [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, { jsonrpc: '2.0', id: 1 }],
    WebSubHubRequest: [
      { 'hub.mode': 'subscribe', 'hub.callback': 'https://sub.example.test/cb', 'hub.topic': urls.feedXml, 'hub.lease_seconds': 3600 },
      { 'hub.mode': 'subscribe', 'hub.callback': 'http://sub.example.test/cb', 'hub.topic': urls.feedXml },
    ],
    WebSubPublishVerdict: [
      { topics: [{ topic: urls.reviewsJson, changed: true, subscribers: 3 }] },
      { topics: [{ topic: urls.reviewsJson, changed: 'yes', subscribers: -1 }] },
    ],
  };

  it('has a sample for every component', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(doc.components.schemas).sort());
  });

  it.each(Object.entries(samples))('%s compiles strictly, accepts a valid sample and rejects an invalid one', (name, [valid, invalid]) => {
    const validate = validatorOf(name);
    expect(validate(valid), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate(invalid)).toBe(false);
  });

  it('every example in the document validates against its schema', () => {
    // Schemas inside the document refer to components by local pointer; point those at the copy ajv holds.
    const compile = (schema: unknown) => ajv.compile(pointAtDefs(schema, 'https://openapi.invalid/doc'));
    const checked: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = compile(schema);
      expect(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked.push(where);
    };
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Node;
      if ('schema' in n && 'example' in n) check(where, n.schema, n.example);
      if (!('schema' in n) && 'type' in n) {
        const { example, examples, ...schema } = n;
        if (example !== undefined) check(where, schema, example);
        if (Array.isArray(examples)) examples.forEach((e, i) => check(`${where}/examples/${i}`, schema, e));
      }
      for (const [key, child] of Object.entries(n)) visit(child, `${where}/${key}`);
    };
    visit(doc, '#');
    expect(checked.filter((w) => w.includes('/content/')).length).toBeGreaterThanOrEqual(5);
    expect(checked.some((w) => w.startsWith('#/components/schemas/JsonRpcRequest/examples'))).toBe(true);
  });
});

describe('core/feeds and core/openapi', () => {
  it('import nothing but zod and other core modules', async () => {
    const root = fileURLToPath(new URL('../../core/', import.meta.url));
    for (const dir of ['feeds', 'openapi']) {
      for (const file of await readdir(join(root, dir))) {
        const source = await readFile(join(root, dir, file), 'utf8');
        const imports = [...source.matchAll(/^import [^;]*? from '([^']+)'/gms)].map((m) => m[1]!);
        expect(imports.filter((s) => s !== 'zod' && !s.startsWith('.')), `${dir}/${file}`).toEqual([]);
      }
    }
  });
});
