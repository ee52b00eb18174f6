import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLogFiles, entryTilesOf, formatVerifierKey, generateSigner, hashTilesOf, tilePath } from '../../core/log/index.ts';
import { formatAddCheckpointRequest } from '../../core/witness/add-checkpoint.ts';
import { validateAtom } from '../helpers/atom-validate.ts';
import { createOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validate.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let validator: OpenApiValidator;
let distDir: string;

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
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
    ['GET', '/api/reviews/since/2025-01-01?location=springfield', {}],
    ['GET', '/api/technicians/rank?location=springfield', {}],
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

describe('the review log and the witness, live, against the served OpenAPI document', () => {
  const conforms = async (method: string, p: string, res: Response) => expect({ p, errors: await validator.validateFetchResponse(method, res, p) }).toEqual({ p, errors: [] });

  it('serves the log\'s checkpoint, vkey and tiles as documented', async () => {
    const size = Number((await (await fetch(`${sidecar.url}/log/checkpoint`)).text()).split('\n')[1]);
    expect(size).toBeGreaterThan(0);
    const tiles = [...hashTilesOf(size), ...entryTilesOf(size)].map((t) => `/log/${tilePath(t)}`);
    expect(tiles.length).toBeGreaterThanOrEqual(2);
    // And tiles the log does not have: a full one, a partial one of another width.
    for (const p of ['/log/checkpoint', '/log/vkey', ...tiles, '/log/tile/0/999', `/log/tile/entries/000.p/${(size % 255) + 1}`]) {
      for (const method of ['GET', 'HEAD']) await conforms(method, p, await fetch(`${sidecar.url}${p}`, { method }));
    }
    const tile = await fetch(`${sidecar.url}${tiles[0]}`);
    expect([tile.status, tile.headers.get('content-type'), tile.headers.get('cache-control')]).toEqual([200, 'application/octet-stream', 'public, max-age=31536000, immutable']);
    // Without WITNESS_LOGS this sidecar is no witness.
    await conforms('POST', '/witness/add-checkpoint', await fetch(`${sidecar.url}/witness/add-checkpoint`, { method: 'POST', body: 'old 0\n\n' }));
    await conforms('GET', '/witness/vkey', await fetch(`${sidecar.url}/witness/vkey`));
  });

  it('answers add-checkpoint as documented: 200, 409, 422, 400, 403, 404, 413 and 405', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'openapi-witness-'));
    const key = generateSigner('reviews.acme.example/log');
    const witness = await startTestSidecar({ distDir, publicUrl: 'https://reviews.bob.example', env: { DATA_DIR: dataDir, WITNESS_LOGS: formatVerifierKey(key) } });
    try {
      const entries = Array.from({ length: 20 }, (_, i) => Buffer.from(`entry ${i}`));
      const logOf = (size: number, signer = key) => buildLogFiles({ origin: signer.name, entries: entries.slice(0, size), signer });
      const post = async (body: string, expected: number) => {
        const res = await fetch(`${witness.url}/witness/add-checkpoint`, { method: 'POST', body });
        expect(res.status).toBe(expected);
        await conforms('POST', '/witness/add-checkpoint', res);
      };
      const checkpoint = (size: number, signer = key) => logOf(size, signer).files.get('checkpoint')!.toString('utf8');
      await post(formatAddCheckpointRequest({ oldSize: 0, proof: [], note: checkpoint(10) }), 200);
      await post(formatAddCheckpointRequest({ oldSize: 0, proof: [], note: checkpoint(20) }), 409);
      await post(formatAddCheckpointRequest({ oldSize: 10, proof: [], note: checkpoint(20) }), 422);
      await post('not a request', 400);
      await post(formatAddCheckpointRequest({ oldSize: 10, proof: logOf(20).tree.consistencyProof(10), note: checkpoint(20, generateSigner(key.name)) }), 403);
      await post(formatAddCheckpointRequest({ oldSize: 0, proof: [], note: checkpoint(5, generateSigner('reviews.mallory.example/log')) }), 404);
      await post(`old 0\n\n${'x'.repeat(20_000)}`, 413);
      await conforms('GET', '/witness/add-checkpoint', await fetch(`${witness.url}/witness/add-checkpoint`));
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(`${witness.url}/witness/vkey`, { method });
        expect(res.status).toBe(200);
        await conforms(method, '/witness/vkey', res);
      }
    } finally {
      await witness.close();
      await rm(dataDir, { recursive: true, force: true });
    }
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
