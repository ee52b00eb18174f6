/**
 * No zod default message reaches a client or a user (issue 21): bad input to every live REST endpoint
 * (derived from the OpenAPI document, so a new parameter or endpoint is covered without editing this
 * file), the search page, the hub, every MCP tool (derived from tools/list) and the commands build,
 * import, init and publish. Every answer must be an error, and in our words.
 */
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOD_DEFAULT_PHRASES } from '../../core/schemas/issues.ts';
import { PATHS } from '../../core/urls.ts';
import { runScript } from '../helpers/run-script.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

type JsonSchema = { type?: string | string[]; enum?: unknown[]; maxLength?: number; maximum?: number; format?: string; pattern?: string; anyOf?: JsonSchema[] };
type Parameter = { name: string; in: 'query' | 'path' | 'header'; schema: JsonSchema };
type Operation = { parameters?: (Parameter | { $ref: string })[]; responses: Record<string, unknown> };

/** Values a schema refuses: the wrong type, one over each bound, outside the enum, an impossible date. */
function badValuesFor(schema: JsonSchema): string[] {
  const types = [schema.type ?? schema.anyOf?.map((s) => s.type)].flat().filter(Boolean);
  const bad = new Set<string>();
  if (types.includes('integer') || types.includes('number')) bad.add('many').add('99999999999');
  if (types.includes('integer')) bad.add('1.5');
  if (types.includes('boolean')) bad.add('maybe');
  if (schema.enum) bad.add('no-such-value');
  if (schema.maxLength !== undefined) bad.add('x'.repeat(schema.maxLength + 1));
  if (schema.format === 'date') bad.add('2024-02-30');
  if (schema.pattern !== undefined || bad.size === 0) bad.add('%E2%9C%97 ✗ <b>');
  return [...bad];
}

const describeTimes = (text: string) => text.match(ZOD_DEFAULT_PHRASES)?.[0];

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let client: Client;
let operations: [string, Operation][];

beforeAll(async () => {
  const { distDir } = await buildTestSite({ contentDir: SMALL_CONTENT });
  sidecar = await startTestSidecar({ distDir });
  client = new Client({ name: 'bad-input', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}${PATHS.mcp}`)));
  const document = (await (await fetch(`${sidecar.url}${PATHS.openapi}`)).json()) as { paths: Record<string, { get?: Operation }> };
  // The live endpoints: the ones the document says answer 400 to bad input.
  operations = Object.entries(document.paths).flatMap(([p, item]) => (item.get?.responses['400'] ? [[p, item.get] as [string, Operation]] : []));
});
afterAll(async () => {
  await client?.close();
  await sidecar?.close();
});

describe('REST endpoints given bad input', () => {
  it('covers every live GET endpoint that takes parameters', () => {
    expect(operations.map(([p]) => p)).toEqual(expect.arrayContaining([PATHS.search, PATHS.technicianRank, `${PATHS.sincePrefix}{date}`]));
  });

  it('answer 400 in our words for each bad value of each parameter, and for an unknown parameter', async () => {
    const leaks: string[] = [];
    let asked = 0;
    for (const [template, operation] of operations) {
      const parameters = (operation.parameters ?? []).filter((p): p is Parameter => 'in' in p && p.in !== 'header');
      const valid = (p: Parameter) => (p.schema.format === 'date' || p.name === 'date' ? '2025-01-01' : undefined);
      const urlOf = (query: URLSearchParams, pathValue?: string) => {
        const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue ?? valid({ name, in: 'path', schema: {} }) ?? 'x'));
        return `${sidecar.url}${filled}${query.size > 0 ? `?${query}` : ''}`;
      };
      // An endpoint without query parameters ignores a query string, as a static file does; so does since,
      // whose one parameter is `location` (its snapshots never refused any other).
      const strict = parameters.some((p) => p.in === 'query') && template !== `${PATHS.sincePrefix}{date}`;
      const requests = strict ? [urlOf(new URLSearchParams({ no_such_parameter: '1' }))] : [];
      for (const parameter of parameters) {
        for (const value of badValuesFor(parameter.schema)) {
          requests.push(parameter.in === 'path' ? urlOf(new URLSearchParams(), value) : urlOf(new URLSearchParams({ [parameter.name]: value })));
        }
      }
      for (const url of requests) {
        const response = await fetch(url);
        const text = await response.text();
        asked += 1;
        if (response.status !== 400) leaks.push(`${url}: ${response.status}`);
        const phrase = describeTimes(text);
        if (phrase) leaks.push(`${url}: "${phrase}" in ${text.slice(0, 300)}`);
      }
    }
    expect(asked).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  });

  it('the search page shows its problems in our words', async () => {
    const response = await fetch(`${sidecar.url}${PATHS.searchPage}?rating=many&limit=99999999999&since=2024-02-30&query=${'x'.repeat(600)}&sort=no-such-value`, {
      headers: { accept: 'text/html' },
    });
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(describeTimes(html)).toBeUndefined();
  });

  it.each([
    ['no mode', ''],
    ['an unknown mode', 'hub.mode=subscribed'],
    ['a repeated mode', 'hub.mode=subscribe&hub.mode=publish'],
    ['a subscription missing everything', 'hub.mode=subscribe'],
    ['a bad callback, topic, lease and secret', `hub.mode=subscribe&hub.callback=ftp://x&hub.topic=https://elsewhere/&hub.lease_seconds=-1&hub.secret=${'s'.repeat(300)}`],
    ['a publish ping naming no topic', 'hub.mode=publish'],
    ['an unsubscribe with two callbacks', 'hub.mode=unsubscribe&hub.callback=https://a.example/&hub.callback=https://b.example/&hub.topic=x'],
  ])('the hub refuses %s in our words', async (_, form) => {
    const response = await fetch(`${sidecar.url}${PATHS.hub}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(describeTimes(text), text).toBeUndefined();
  });
});

describe('MCP tools given bad arguments', () => {
  it('answer isError in our words for an unknown argument and each bad value of each argument', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(4);
    const leaks: string[] = [];
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      const calls: Record<string, unknown>[] = [{ no_such_argument: 1 }];
      for (const [name, schema] of Object.entries(properties)) {
        calls.push({ [name]: { an: 'object' } });
        for (const value of badValuesFor(schema)) calls.push({ [name]: value });
      }
      for (const args of calls) {
        const result = await client.callTool({ name: tool.name, arguments: args });
        const text = JSON.stringify(result.content);
        if (result.isError !== true) leaks.push(`${tool.name} ${JSON.stringify(args).slice(0, 80)}: not an error`);
        const phrase = describeTimes(text);
        if (phrase) leaks.push(`${tool.name} ${JSON.stringify(args).slice(0, 80)}: "${phrase}" in ${text.slice(0, 300)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('a JSON-RPC request with bad params gets -32602 in our words', async () => {
    const init = await fetch(`${sidecar.url}${PATHS.mcp}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id')!;
    const response = await fetch(`${sidecar.url}${PATHS.mcp}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 42 } }),
    });
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(describeTimes(body.error.message), body.error.message).toBeUndefined();
  });
});

describe('commands given bad input', () => {
  const node = (args: string[], env: Record<string, string> = {}) => runScript(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'silent', ...env } });

  it('build names every content, aspects and editor-file problem in our words', async () => {
    const content = path.join(await mkdtemp(path.join(tmpdir(), 'bad-content-')), 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    await writeFile(path.join(content, 'reviews', 'bad.json'), JSON.stringify([{ id: 'Bad Id', rating: 'five', date: '2024-02-30', text: 7, verified: 'yes', extra: 1 }, {}]));
    await writeFile(path.join(content, 'aspects.json'), JSON.stringify({ aspects: [{ id: 7, terms: 'x' }], colour: 'red' }));
    await mkdir(path.join(content, 'insights'), { recursive: true });
    await writeFile(path.join(content, 'insights', 'faq.json'), JSON.stringify({ entries: [{ question: 1 }], hide: 'all' }));
    const run = await node(['scripts/build.ts'], { CONTENT_DIR: content, DIST_DIR: path.join(path.dirname(content), 'dist') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('bad.json');
    expect(run.stderr).toContain('aspects.json');
    expect(describeTimes(run.stderr + run.stdout), run.stderr).toBeUndefined();
  });

  it.each([
    ['build', ['scripts/build.ts']],
    ['publish', ['scripts/publish.ts']],
  ])('%s names each bad setting in our words', async (_, args) => {
    const run = await node(args, { PORT: 'many', PUBLIC_URL: 'ftp://x', LOG_LEVEL: 'chatty', WEBSUB_LEASE_SECONDS: '1,2' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT');
    expect(describeTimes(run.stderr), run.stderr).toBeUndefined();
  });

  it('import names bad flags, a bad mapping and bad rows in our words', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bad-import-'));
    const content = path.join(dir, 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    const google = path.join(dir, 'google.json');
    await writeFile(google, JSON.stringify({ reviews: [{ reviewId: 7, starRating: 'SIX', createTime: 'yesterday', reviewer: 'me' }, { reviewId: 'a', starRating: 'FIVE', createTime: '2025-01-01T00:00:00Z', reviewer: { displayName: 4 } }] }));
    const backup = path.join(dir, 'backup.json');
    await writeFile(backup, JSON.stringify({ reviews: [{ id: 'Bad Id', rating: 9, date: 'x', text: 1 }] }));
    const mapping = path.join(dir, 'mapping.json');
    await writeFile(mapping, JSON.stringify({ source: 'Not A Slug', columns: { text: '', nope: 'x' }, delimiter: '::', day_first: 'yes' }));
    const runs = [
      await node(['scripts/import/main.ts', 'google', google, '--dry-run'], { CONTENT_DIR: content }),
      await node(['scripts/import/main.ts', 'json', backup, '--dry-run'], { CONTENT_DIR: content }),
      await node(['scripts/import/main.ts', 'csv', google, '--mapping', mapping], { CONTENT_DIR: content }),
      await node(['scripts/import/main.ts', 'google', google, '--author-style', 'nick', '--time-zone', 'Mars/Base'], { CONTENT_DIR: content }),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 2, 2]);
    for (const run of runs) expect(describeTimes(run.stderr + run.stdout), run.stderr + run.stdout).toBeUndefined();
    expect(runs[0]!.stdout).toMatch(/skipped/i);
  });

  it('init names bad flags in our words', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bad-init-'));
    const run = await node(['scripts/init.ts', '--name', '', '--website', 'not a url', '--telephone', 'x', '--country', 'USA', '--service', ''], {
      CONTENT_DIR: path.join(dir, 'content'),
    });
    expect(run.code).not.toBe(0);
    expect(describeTimes(run.stderr + run.stdout), run.stderr).toBeUndefined();
  });
});

describe('the same bad cursor, over REST search, the search page and MCP search_reviews', () => {
  type Issue = { path: (string | number)[]; message: string; code: string };

  /** A cursor of another search: the one REST gives for `rating=4` (this search is `rating=5`). */
  const cursorOfAnotherSearch = async () => {
    const first = (await (await fetch(`${sidecar.url}${PATHS.search}?rating=4&limit=1`)).json()) as { next_cursor: string | null };
    expect(first.next_cursor).toEqual(expect.any(String));
    return first.next_cursor!;
  };

  // (An empty cursor is not among them: the search page reads an empty form field as no filter.)
  it.each([
    ['a cursor this server never issued', async () => 'bm90LWEtY3Vyc29y'],
    ['a 600-character cursor', async () => 'x'.repeat(600)],
    ['a cursor of another search', cursorOfAnotherSearch],
  ])('%s gets the same message and code', async (_, makeCursor) => {
    const cursor = await makeCursor();
    const rest = await fetch(`${sidecar.url}${PATHS.search}?${new URLSearchParams({ rating: '5', cursor })}`);
    expect(rest.status).toBe(400);
    const restIssue = ((await rest.json()) as { issues: Issue[] }).issues.find((i) => i.path[0] === 'cursor')!;
    expect(restIssue.code).toMatch(/^[a-z_]+$/);

    const mcp = await client.callTool({ name: 'search_reviews', arguments: { rating: 5, cursor } });
    expect(mcp.isError).toBe(true);
    const mcpIssue = (mcp._meta as { issues: Issue[] }).issues.find((i) => i.path[0] === 'cursor');
    expect(mcpIssue).toEqual(restIssue);
    expect(JSON.stringify(mcp.content)).toContain(`cursor: ${restIssue.message}`);

    const page = await fetch(`${sidecar.url}${PATHS.searchPage}?${new URLSearchParams({ rating: '5', cursor })}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    const item = /<li data-code="([^"]+)"><strong>[^<]*<\/strong> ([^<]*)\.<\/li>/.exec(await page.text());
    expect(item?.slice(1)).toEqual([restIssue.code, restIssue.message.replace(/"/g, '&quot;')]);
  });
});
