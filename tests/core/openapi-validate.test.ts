import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJsonFeed } from '../../core/feeds/index.ts';
import { buildOpenApiExamples } from '../../core/openapi/examples.ts';
import { buildOpenApiDocument } from '../../core/openapi/index.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { createOpenApiValidator, type LiveResponse } from '../helpers/openapi-validate.ts';

const BASE = 'https://reviews.acme.test';
const urls = createServiceUrls(BASE);
const check = createOpenApiValidator(buildOpenApiDocument({ urls }));
const examples = buildOpenApiExamples(urls);
const feedBody = renderJsonFeed({ business: examples.reviewsDataset.business, reviews: examples.reviewsDataset.reviews, urls });

const JSON_TYPE = 'application/json; charset=utf-8';
const topicHeaders = {
  'content-type': JSON_TYPE,
  etag: '"abc123"',
  'last-modified': 'Sun, 01 Jun 2025 00:00:00 GMT',
  link: `<${urls.hub}>; rel="hub", <${urls.feedJson}>; rel="self"`,
};
const feedOk: LiveResponse = { method: 'GET', url: urls.feedJson, status: 200, headers: topicHeaders, body: feedBody };
const errorBody = (error: string) => JSON.stringify({ error, message: 'Something is wrong.' });

describe('createOpenApiValidator', () => {
  it.each<[string, LiveResponse]>([
    ['a JSON Feed topic with its validators and Link', feedOk],
    ['HEAD with headers and no body', { ...feedOk, method: 'HEAD', body: '' }],
    ['a 304 with its validators and no body', { ...feedOk, status: 304, headers: { etag: '"abc123"', 'last-modified': topicHeaders['last-modified'] }, body: '' }],
    [
      'a since response, matched by path template, with a query string',
      { method: 'GET', url: `${urls.since('2025-01-01')}?x=1`, status: 200, headers: { ...topicHeaders, link: '' }, body: JSON.stringify(examples.reviewList) },
    ],
    ['a search 400 error body', { method: 'GET', url: '/api/reviews/search?limit=0', status: 400, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(examples.badDate) }],
    ['an unknown path answered with a JSON 404', { method: 'GET', url: '/nope', status: 404, headers: { 'content-type': JSON_TYPE }, body: errorBody('not_found') }],
    [
      'a wrong method answered with 405 and Allow',
      { method: 'DELETE', url: urls.reviewsJson, status: 405, headers: { 'content-type': JSON_TYPE, allow: 'GET, HEAD' }, body: errorBody('method_not_allowed') },
    ],
    [
      'a JSON-RPC 405 from GET /mcp',
      { method: 'GET', url: urls.mcp, status: 405, headers: { 'content-type': JSON_TYPE, allow: 'POST, OPTIONS' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Use POST.' } }) },
    ],
    [
      'a JSON-RPC 405 for any other method on /mcp',
      { method: 'PUT', url: urls.mcp, status: 405, headers: { 'content-type': JSON_TYPE, allow: 'POST, OPTIONS' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Use POST.' } }) },
    ],
    ['a bodiless 204 to a CORS preflight', { method: 'OPTIONS', url: urls.reviewsJson, status: 204, headers: { allow: 'GET, HEAD, OPTIONS' }, body: '' }],
    ['an Atom feed (not JSON, so only its type is checked)', { ...feedOk, url: urls.feedXml, headers: { ...topicHeaders, 'content-type': 'application/atom+xml; charset=utf-8' }, body: '<feed/>' }],
  ])('accepts %s', (_name, response) => {
    expect(check.validateResponse(response)).toEqual([]);
  });

  it.each<[string, LiveResponse, RegExp]>([
    ['a missing required header', { ...feedOk, headers: { ...topicHeaders, etag: undefined as never } }, /missing required header ETag/],
    ['a header that breaks its schema', { ...feedOk, headers: { ...topicHeaders, etag: 'abc123' } }, /header ETag: "abc123" .*pattern/],
    ['a body that breaks the schema', { ...feedOk, body: JSON.stringify({ ...JSON.parse(feedBody), version: 'https://jsonfeed.org/version/1' }) }, /body\/version must equal "https:\/\/jsonfeed.org\/version\/1.1"/],
    ['an unknown property', { ...feedOk, body: JSON.stringify({ ...JSON.parse(feedBody), itmes: [] }) }, /body must NOT have the additional property "itmes"/],
    ['a body that is not JSON', { ...feedOk, body: '{"version":' }, /body is not JSON/],
    ['an unlisted Content-Type', { ...feedOk, headers: { ...topicHeaders, 'content-type': 'text/html' } }, /Content-Type text\/html is not one of application\/json/],
    ['a body on a 304', { ...feedOk, status: 304, headers: { etag: '"abc123"' } }, /expected no body/],
    ['a body on HEAD', { ...feedOk, method: 'HEAD' }, /expected no body/],
    ['an undocumented status', { ...feedOk, status: 500, body: '' }, /status not documented for GET \/api\/feed.json \(documented: 200, 304, 412\)/],
    ['an unknown path that is not a 404', { ...feedOk, url: '/nope' }, /matches no path of the document, so the status must be 404/],
    ['a 404 without the error body', { method: 'GET', url: '/nope', status: 404, headers: { 'content-type': JSON_TYPE }, body: '{}' }, /body must have required property 'error'/],
    ['an undocumented method that is not a 405', { ...feedOk, method: 'POST' }, /POST is not documented on \/api\/feed.json, so the status must be 405/],
    ['a JSON-RPC 405 from /mcp that lacks Allow', { method: 'GET', url: urls.mcp, status: 405, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Use POST.' } }) }, /missing required header Allow/],
    ['an Error body on a 405 from /mcp', { method: 'PUT', url: urls.mcp, status: 405, headers: { 'content-type': JSON_TYPE, allow: 'POST' }, body: errorBody('method_not_allowed') }, /body must have required property 'jsonrpc'/],
    ['a 405 without Allow', { method: 'PUT', url: urls.reviewsJson, status: 405, headers: { 'content-type': JSON_TYPE }, body: errorBody('method_not_allowed') }, /missing required header Allow/],
  ])('reports %s', (_name, response, expected) => {
    const errors = check.validateResponse({ ...response, headers: Object.fromEntries(Object.entries(response.headers).filter(([, v]) => v !== undefined)) });
    expect(errors.join('\n')).toMatch(expected);
  });
});

describe('validateFetchResponse', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/api/feed.json') res.writeHead(200, topicHeaders).end(feedBody);
      else res.writeHead(404, { 'content-type': JSON_TYPE }).end(errorBody('not_found'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('checks a real fetch response and leaves its body readable', async () => {
    const res = await fetch(`${origin}/api/feed.json`);
    expect(await check.validateFetchResponse('GET', res)).toEqual([]);
    expect((await res.json()).version).toBe('https://jsonfeed.org/version/1.1');
    expect(await check.validateFetchResponse('GET', await fetch(`${origin}/missing`))).toEqual([]);
  });
});
