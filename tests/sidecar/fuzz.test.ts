/**
 * A seeded fuzz of the whole HTTP surface (issue 10 item 9): a few thousand generated requests across
 * every route and method — static files, search, since, /mcp, the hub, the probes, unknown paths —
 * with hostile parameters, headers and bodies. Every answer must come within a few seconds, never be a
 * 5xx, and every error must have a JSON body. The seed is printed with a failure, so it replays.
 *
 * No request leaves the machine: hub callbacks are IP literals (private ones are refused without a
 * connection, as the service's default is), never host names that would need DNS.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { createRandom, type Random } from '../../tools/fixtures/search/random.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = 3_000;
const CONCURRENCY = 8;
const PUBLIC = 'https://reviews.example.com';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let staticPaths: string[];

beforeAll(async () => {
  const { distDir, manifest } = await buildTestSite({ publicUrl: PUBLIC });
  staticPaths = Object.keys(manifest.files);
  // Limits high enough that the fuzz reaches past them; the limits have their own tests.
  sidecar = await startTestSidecar({
    distDir,
    publicUrl: PUBLIC,
    env: { MCP_RATE_LIMIT: '1000000,1000000', WEBSUB_RATE_LIMIT: '1000000,1000000', MAX_CONNECTIONS_PER_ADDRESS: '0' },
  });
}, 120_000);
afterAll(() => sidecar?.close());

const NASTY = ['', ' ', '%', '%ff', '%00', '\u0000', '..', '../..', '//', '\\', "'", '"', '<script>', '🙂', 'é', '\u202e', 'a'.repeat(5000), '-1', '0', '1e309', 'NaN', 'null', '[]', '{}', 'true', '2024-02-30', '2024-13-01', '99999-01-01', '1.5', ' 5 ', '0x10', '%2e%2e', '+', '&', '=', '#'];
const SEARCH_PARAMS = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'aspect', 'aspect_sentiment', 'limit', 'cursor', 'sort', 'has_response', 'has_media', 'offset', 'page', 'RATING', '__proto__', 'constructor'];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

function value(r: Random): string {
  return r.pick([() => r.pick(NASTY), () => String(r.int(0, 199) - 50), () => `2025-0${1 + r.int(0, 8)}-${10 + r.int(0, 19)}`, () => r.pick(['price', 'punctuality', 'positive', 'negative', 'newest', 'true', 'false'])])();
}

function encodeLoosely(r: Random, text: string): string {
  return r.chance(0.8) ? encodeURIComponent(text) : text.replace(/[\s#?&\u0000-\u001f]/g, (c) => encodeURIComponent(c));
}

function searchQuery(r: Random): string {
  const parts: string[] = [];
  for (let i = r.int(0, 4); i > 0; i--) parts.push(`${encodeLoosely(r, r.pick(SEARCH_PARAMS))}=${encodeLoosely(r, value(r))}`);
  if (r.chance(0.1)) parts.push(parts[0] ?? 'rating=5');
  return parts.join(r.chance(0.9) ? '&' : ';');
}

function path(r: Random): string {
  return r.pick([
    () => r.pick(staticPaths) + (r.chance(0.2) ? `?${searchQuery(r)}` : ''),
    () => `/api/reviews/search?${searchQuery(r)}`,
    () => `/api/reviews/changes?${encodeLoosely(r, r.pick(['since', 'limit', 'cursor']))}=${encodeLoosely(r, value(r))}${r.chance(0.3) ? `&limit=${encodeLoosely(r, value(r))}` : ''}`,
    () => `/api/reviews/since/${encodeLoosely(r, r.chance(0.6) ? `20${10 + r.int(0, 19)}-${String(1 + r.int(0, 12)).padStart(2, '0')}-${String(r.int(0, 32)).padStart(2, '0')}` : value(r))}`,
    () => '/mcp',
    () => '/api/websub/hub',
    () => r.pick(['/healthz', '/readyz', '/.well-known/openapi.json', '/search/', '/sitemap.xml']),
    () => `/${encodeLoosely(r, value(r))}/${encodeLoosely(r, value(r))}`,
    () => r.pick(['/API/REVIEWS/SEARCH', '/api/reviews/search/', '/MCP', '/mcp/', '//reviews.json', '/reviews.json/', '/%2e%2e/etc/passwd', '/api/reviews/since/', '/api/reviews/since']),
  ])();
}

function jsonRpc(r: Random): unknown {
  const method = r.pick(['initialize', 'tools/list', 'tools/call', 'resources/read', 'resources/list', 'prompts/get', 'ping', 'nope', 'notifications/initialized']);
  const args = Object.fromEntries(Array.from({ length: r.int(0, 5) }, () => [r.pick([...SEARCH_PARAMS, 'id', 'date']), r.chance(0.5) ? value(r) : r.int(0, 999)]));
  const params = r.pick([
    undefined,
    { name: r.pick(['search_reviews', 'get_review', 'get_reviews_since', 'get_changes', 'get_business', 'get_insights', 'get_rating_summary', 'nope']), arguments: args },
    { uri: r.pick(['reviews://business', 'reviews://reviews/%ff', '', 'reviews://reviews/x', value(r)]) },
    { protocolVersion: r.pick(['2025-06-18', '1999-01-01', value(r)]), capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    value(r),
  ]);
  return { jsonrpc: r.pick(['2.0', '2.0', '1.0']), ...(r.chance(0.9) ? { id: r.pick([1, 'a', null, 1.5]) } : {}), method, ...(params === undefined ? {} : { params }) };
}

function body(r: Random, target: string): { body?: Buffer; headers: Record<string, string> } {
  if (target === '/mcp') {
    const text = r.pick([() => JSON.stringify(jsonRpc(r)), () => `[${JSON.stringify(jsonRpc(r))}]`, () => value(r), () => '{"jsonrpc":"2.0","id":1,']);
    return { body: Buffer.from(text()), headers: { 'content-type': r.pick(['application/json', 'application/JSON; charset=utf-8', 'text/plain']), accept: r.pick(['application/json, text/event-stream', 'Application/Json, Text/Event-Stream', '*/*']) } };
  }
  if (target === '/api/websub/hub') {
    const form = new URLSearchParams();
    for (let i = r.int(0, 5); i > 0; i--) {
      const name = r.pick(['hub.mode', 'hub.topic', 'hub.callback', 'hub.lease_seconds', 'hub.secret', 'hub.url', 'x']);
      const v = name === 'hub.mode' ? r.pick(['subscribe', 'unsubscribe', 'publish', value(r)])
        : name === 'hub.callback' ? r.pick(['https://127.0.0.1:9/cb', 'https://[::1]:9/cb', 'http://127.0.0.1/cb', 'https://10.0.0.1/x', 'https://169.254.169.254/', value(r)])
        : name === 'hub.topic' || name === 'hub.url' ? r.pick([`${PUBLIC}/feed.xml`, `${PUBLIC}/reviews.json`, value(r)])
        : value(r);
      form.append(name, v);
    }
    return { body: Buffer.from(form.toString()), headers: { 'content-type': r.pick(['application/x-www-form-urlencoded', 'application/json', 'multipart/form-data']) } };
  }
  return r.chance(0.3) ? { body: Buffer.from(value(r)), headers: { 'content-type': 'application/octet-stream' } } : { headers: {} };
}

function extraHeaders(r: Random): Record<string, string> {
  const headers: Record<string, string> = {};
  if (r.chance(0.3)) headers['accept-encoding'] = r.pick(['br', 'gzip', 'br;q=0, gzip;q=0, identity;q=0', '*', 'x-unknown', value(r).replace(/[^\x20-\x7e]/g, '')]);
  if (r.chance(0.15)) headers['if-none-match'] = r.pick(['*', '"x"', 'W/"x", "y"', value(r).replace(/[^\x20-\x7e]/g, '')]);
  if (r.chance(0.1)) headers['if-modified-since'] = r.pick(['Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday', 'Sat, 01 Jan 2100 00:00:00 GMT']);
  if (r.chance(0.05)) headers['if-match'] = '"nope"';
  if (r.chance(0.1)) headers.range = 'bytes=0-10';
  if (r.chance(0.1)) headers.origin = r.pick([PUBLIC, 'https://evil.example', 'null']);
  if (r.chance(0.1)) headers.accept = r.pick(['text/html', 'application/json', '*/*', 'TEXT/HTML']);
  if (r.chance(0.05)) headers['access-control-request-method'] = 'GET';
  return headers;
}

type Outcome = { method: string; path: string; status: number; type: string; body: string; ms: number };

function send(agent: Agent, method: string, target: string, headers: Record<string, string>, payload?: Buffer): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${sidecar.url}${target}`, { method, headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ method, path: target, status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.setTimeout(5_000, () => req.destroy(new Error(`no answer within 5 s: ${method} ${target.slice(0, 200)}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

describe(`fuzz (seed ${SEED})`, () => {
  it(`answers ${REQUESTS} generated requests without a 5xx or a hang, every error in JSON`, async () => {
    const r = createRandom(SEED);
    const plan = Array.from({ length: REQUESTS }, () => {
      const target = path(r);
      const method = target === '/mcp' || target === '/api/websub/hub' ? r.pick(['POST', 'POST', 'POST', ...METHODS]) : r.pick(METHODS);
      const { body: payload, headers } = method === 'GET' || method === 'HEAD' ? { body: undefined, headers: {} } : body(r, target);
      return { method, target, headers: { ...extraHeaders(r), ...headers }, payload };
    });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < plan.length) {
        const { method, target, headers, payload } = plan[next++]!;
        const outcome = await send(agent, method, target, headers, payload).catch((error: Error) => ({ error }));
        if ('error' in outcome) {
          problems.push(`${method} ${target.slice(0, 120)}: ${outcome.error.message}`);
          continue;
        }
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        const where = `${method} ${target.slice(0, 120)} → ${outcome.status}`;
        if (outcome.status >= 500) problems.push(`${where}: ${outcome.body.slice(0, 200)}`);
        if (outcome.status >= 400 && method !== 'HEAD') {
          const html = outcome.type.startsWith('text/html') && outcome.status === 404;
          if (!html) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(outcome.body);
            } catch {
              problems.push(`${where}: error body is not JSON (${outcome.type}): ${outcome.body.slice(0, 120)}`);
              continue;
            }
            const shaped = typeof parsed === 'object' && parsed !== null && ('error' in parsed);
            if (!outcome.type.startsWith('application/json') || !shaped) problems.push(`${where}: not a JSON error (${outcome.type})`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    expect(problems.slice(0, 20), `seed ${SEED}, ${problems.length} problems`).toEqual([]);
    // The fuzz reached past validation: successes, client errors and conditional answers all occurred.
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThan(3);
    // And the service still serves normally afterwards.
    expect((await fetch(`${sidecar.url}/readyz`)).status).toBe(200);
  }, 120_000);
});
