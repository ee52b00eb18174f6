/**
 * Proxy benchmark (issue 19 item 3, `npm run bench -- proxy`): the nginx configurations of deploy/nginx/,
 * run for real by this machine's nginx (Debian's: `apt-get install -y nginx`), on loopback only, in front
 * of the real sidecar. Two sites: deploy/nginx/reviews.conf with PUBLIC_URL at the root of a host, and
 * deploy/nginx/reviews-under-path.conf with PUBLIC_URL under `/reviews`. The files are used as they are,
 * with only the host name, ports, certificate (from a CA made here), cache folder and upstream port
 * swapped for local ones. Through nginx, over HTTPS, it checks that every page in the sitemap answers,
 * every link in the pages, feeds, datasets, sitemap, llms.txt, robots.txt and OpenAPI document and every
 * Link header uses PUBLIC_URL, that MCP answers at its address, and that nginx keeps its connections to
 * the sidecar alive.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest, Agent } from 'node:https';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../core/config.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { buildSite } from '../../scripts/build.ts';
import { createLogger } from '../../sidecar/logger.ts';
import { startSidecar, type RunningSidecar } from '../../sidecar/server.ts';
import { findFreePort } from '../lib/free-port.ts';
import { createTestCa, type TestCa } from '../lib/https-ca.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REVIEWS = 300;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
type Site = { name: string; file: string; publicUrl: string; port: number; sidecar?: RunningSidecar; connections: number; accessLog: { path: string; client: string }[] };

function nginxVersion(): string | undefined {
  const run = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  return run.error ? undefined : (run.stderr || run.stdout).trim();
}

/** GET (or POST) through nginx on 127.0.0.1, with TLS for `localhost` checked against the bench's CA. */
function fetchVia(url: string, ca: string, agent: Agent | undefined, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', localAddress: options.localAddress, servername: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? 'GET', headers: { host: target.host, ...options.headers }, ca, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The site file made local: listen on loopback ports, this CA's certificate, a cache in `dir`, the sidecar's port. */
function localize(config: string, site: Site, names: { httpPort: number; dir: string; cert: string; key: string; sidecarPort: number }): string {
  const suffix = site.name.replace(/\W/g, '_');
  return config
    .replace(/^\s*listen \[::\]:.*$/gm, '')
    .replace(/listen 80;/g, `listen 127.0.0.1:${names.httpPort};`)
    .replace(/listen 443 ssl http2;/g, `listen 127.0.0.1:${site.port} ssl http2;`)
    .replace(/server_name \S+;/g, 'server_name localhost;')
    .replace(/ssl_certificate \S+;/g, `ssl_certificate ${names.cert};`)
    .replace(/ssl_certificate_key \S+;/g, `ssl_certificate_key ${names.key};`)
    .replace(/shared:reviews_tls:/g, `shared:reviews_tls_${suffix}:`)
    .replace(/\/var\/cache\/nginx\/reviews/g, path.join(names.dir, `cache-${suffix}`))
    .replace(/root \/var\/www\/\S+;/g, `root ${names.dir};`)
    .replace(/127\.0\.0\.1:4321/g, `127.0.0.1:${names.sidecarPort}`)
    .replace(/reviews_sidecar/g, `reviews_sidecar_${suffix}`)
    .replace(/reviews_static/g, `reviews_static_${suffix}`);
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx does not listen on 127.0.0.1:${port}`);
}

/** Every URL on the site's origin in a text, and those of them not under PUBLIC_URL. */
function foreignUrls(text: string, publicUrl: string): { count: number; outside: string[] } {
  const origin = new URL(publicUrl).origin;
  const escaped = origin.replace(/[.:/]/g, '\\$&');
  // Entities decoded first: in a page's code sample, `'https://…'` is written `&#39;https://…&#39;`.
  const decoded = text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const urls = [...decoded.matchAll(new RegExp(`${escaped}[^\\s"'<>)\\]\\\\]*`, 'g'))].map((m) => m[0]);
  return { count: urls.length, outside: urls.filter((u) => u !== publicUrl && !u.startsWith(`${publicUrl}/`)) };
}

async function checkSite(site: Site, ca: TestCa, problems: string[]): Promise<BenchRow[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const urls = createServiceUrls(site.publicUrl);
  const get = (url: string) => fetchVia(url, ca.certPem, agent);
  let requests = 0;
  let linksChecked = 0;
  const latencies: number[] = [];
  const timed = async (url: string) => {
    const started = performance.now();
    const answer = await get(url);
    latencies.push(performance.now() - started);
    requests++;
    return answer;
  };

  // Pages: every sitemap entry, and every link on them.
  const sitemap = await timed(urls.absolute('/sitemap.xml'));
  const pages = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  pages.push(urls.absolute('/search/?query=late'));
  const linked = new Set<string>();
  for (const page of pages) {
    if (!page.startsWith(`${site.publicUrl}/`)) problems.push(`${site.name}: sitemap lists ${page}`);
    const answer = await timed(page);
    if (answer.status !== 200) problems.push(`${site.name}: ${page} answered ${answer.status}`);
    for (const [, raw] of answer.body.matchAll(/\s(?:href|src|action)="([^"]*)"/g)) {
      const url = raw!.replace(/&amp;/g, '&');
      if (url.startsWith('/') && !url.startsWith('//')) {
        if (urls.basePath !== '' && !url.startsWith(`${urls.basePath}/`)) problems.push(`${site.name}: ${page} links to ${url}, outside ${urls.basePath}/`);
        linked.add(`${urls.origin}${url.split('#')[0]}`);
      }
    }
    for (const url of foreignUrls(answer.body, site.publicUrl).outside) problems.push(`${site.name}: ${page} names ${url}`);
  }
  for (const url of linked) {
    if (url.includes('?') && !url.includes('/search/')) continue;
    linksChecked++;
    const answer = await timed(url);
    if (answer.status !== 200) problems.push(`${site.name}: link ${url} answered ${answer.status}`);
  }

  // Feeds, datasets, OpenAPI and the other machine-read files.
  let machineUrls = 0;
  for (const file of ['/feed.xml', '/api/feed.json', '/reviews.json', '/insights.json', '/llms.txt', '/robots.txt', '/.well-known/openapi.json']) {
    const answer = await timed(urls.absolute(file));
    if (answer.status !== 200) problems.push(`${site.name}: ${file} answered ${answer.status}`);
    const found = foreignUrls(answer.body, site.publicUrl);
    machineUrls += found.count;
    for (const url of found.outside) problems.push(`${site.name}: ${file} names ${url}`);
  }
  const openapi = JSON.parse((await timed(urls.openapi)).body) as { servers: { url: string }[] };
  if (openapi.servers[0]?.url !== site.publicUrl) problems.push(`${site.name}: OpenAPI server ${openapi.servers[0]?.url}`);

  // Link headers: the topics name the hub and themselves; a search names its next page.
  for (const topic of urls.topics()) {
    const link = String((await timed(topic)).headers.link ?? '');
    const expected = `<${urls.hub}>; rel="hub", <${topic}>; rel="self"`;
    if (link !== expected) problems.push(`${site.name}: ${topic} Link ${link}`);
  }
  const next = String((await timed(`${urls.search}?limit=1`)).headers.link ?? '');
  if (!next.startsWith(`<${urls.search}?`)) problems.push(`${site.name}: search Link ${next}`);

  // MCP at its address, through the unbuffered location.
  const mcp = await fetchVia(urls.mcp, ca.certPem, agent, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'proxy-bench', version: '1' } } }),
  });
  requests++;
  if (mcp.status !== 200 || !mcp.body.includes('"protocolVersion"')) problems.push(`${site.name}: MCP initialize answered ${mcp.status}`);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const p50 = latencies[Math.floor(latencies.length / 2)] ?? NaN;
  return [
    { name: `${site.name}: pages (sitemap) answered through nginx`, value: pages.length, unit: 'pages' },
    { name: `${site.name}: links on them followed`, value: linksChecked, unit: 'links' },
    { name: `${site.name}: URLs in feeds, datasets, OpenAPI, llms.txt, robots.txt`, value: machineUrls, unit: 'URLs' },
    { name: `${site.name}: connections nginx opened to the sidecar for ${requests} requests`, value: site.connections, unit: 'connections', target: '<= 32 (keepalive)', ok: site.connections <= 32 },
    { name: `${site.name}: median request through nginx`, value: p50, unit: 'ms' },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const version = nginxVersion();
  if (!version) {
    console.error('  nginx is missing: install it (Debian: apt-get update && apt-get install -y nginx) to run this benchmark.');
    return [{ name: 'nginx installed', value: 0, unit: '', target: 'nginx on the PATH', ok: false }];
  }
  console.error(`  ${version}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'reviews-proxy-'));
  await chmod(dir, 0o755);
  const ca = createTestCa();
  const { key, cert } = ca.issue(['localhost']);
  await writeFile(path.join(dir, 'cert.pem'), cert);
  await writeFile(path.join(dir, 'key.pem'), key);
  const contentDir = await ensureBenchContent(REVIEWS);
  const sites: Site[] = [];
  for (const [name, file, basePath] of [
    ['host root', 'reviews.conf', ''],
    ['under /reviews', 'reviews-under-path.conf', '/reviews'],
  ] as const) {
    const port = await findFreePort();
    sites.push({ name, file, port, publicUrl: `https://localhost:${port}${basePath}`, connections: 0, accessLog: [] });
  }
  let nginx: ChildProcess | undefined;
  const problems: string[] = [];
  const rows: BenchRow[] = [];
  try {
    const httpPort = await findFreePort();
    const servers: string[] = [];
    for (const site of sites) {
      const distDir = path.join(dir, site.name.replace(/\W/g, '_'), 'dist');
      const built = await buildSite({ contentDir, publicUrl: site.publicUrl, outDir: distDir });
      if (!built.ok) throw new Error(built.message);
      const parsed = parseConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: site.publicUrl, DIST_DIR: distDir, DATA_DIR: path.join(dir, `${site.port}-data`), LOG_LEVEL: 'info', TRUST_PROXY: 'loopback', MAX_CONNECTIONS_PER_ADDRESS: '0' });
      if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
      // The access log is kept, to see which client address the sidecar takes from X-Forwarded-For.
      const log = createLogger('info', (line) => {
        const entry = JSON.parse(line) as { event: string; path?: string; client?: string };
        if (entry.event === 'request') site.accessLog.push({ path: String(entry.path), client: String(entry.client) });
      });
      site.sidecar = await startSidecar(parsed.config, { log });
      site.sidecar.server.on('connection', () => site.connections++);
      const config = await readFile(path.join(ROOT, 'deploy/nginx', site.file), 'utf8');
      servers.push(localize(config, site, { httpPort, dir, cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem'), sidecarPort: Number(new URL(site.sidecar.url).port) }));
    }
    for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, 'temp', sub), { recursive: true });
    await chmod(path.join(dir, 'temp'), 0o777);
    const conf = [
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((sub) => `  ${sub}_temp_path ${path.join(dir, 'temp', sub)};`),
      ...servers,
      '}',
    ].join('\n');
    const confFile = path.join(dir, 'nginx.conf');
    await writeFile(confFile, conf);
    const test = spawnSync('nginx', ['-t', '-c', confFile, '-p', dir], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`);
    // Run as this user (no privilege drop needed on unprivileged ports); stopped below by its pid.
    nginx = spawn('nginx', ['-c', confFile, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (const site of sites) await waitForPort(site.port);
    await waitForPort(httpPort);

    const redirect = await new Promise<{ status: number; location: string }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: httpPort, path: '/feed.xml', headers: { host: 'localhost' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? '') });
      })
        .on('error', reject)
        .end();
    });
    const redirected = redirect.status === 301 && redirect.location.startsWith('https://localhost/feed.xml');
    rows.push({ name: 'host root: http:// redirects to https://', value: redirected ? 1 : 0, unit: '', target: '1', ok: redirected });
    for (const site of sites) {
      site.connections = 0;
      rows.push(...(await checkSite(site, ca, problems)));
      // A client at another loopback address: nginx adds it to X-Forwarded-For, and the sidecar (trusting
      // only the proxy's hop, TRUST_PROXY=loopback as docs/deploy.md says) logs that address, not nginx's.
      const probe = `${site.publicUrl}/healthz`;
      await fetchVia(probe, ca.certPem, undefined, { localAddress: '127.0.0.77' });
      // The path as the request named it: under a base path, `/reviews/healthz`.
      const seen = site.accessLog.findLast((line) => line.path === new URL(probe).pathname)?.client;
      const forwarded = seen === '127.0.0.77';
      if (!forwarded) problems.push(`${site.name}: a request from 127.0.0.77 through nginx was logged with client ${seen}`);
      rows.push({ name: `${site.name}: client address taken from X-Forwarded-For`, value: forwarded ? 1 : 0, unit: '', target: '1', ok: forwarded });
    }
  } finally {
    if (nginx) {
      nginx.kill('SIGQUIT');
      if (nginx.exitCode === null) await once(nginx, 'exit');
    }
    for (const site of sites) await site.sidecar?.close();
    ca.remove();
    await rm(dir, { recursive: true, force: true });
  }
  for (const problem of problems.slice(0, 20)) console.error(`  ✗ ${problem}`);
  rows.push({ name: 'links, headers and addresses not under PUBLIC_URL, or not answering', value: problems.length, unit: 'problems', target: '0', ok: problems.length === 0 });
  return rows;
}

if (import.meta.main) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}${row.ok === false ? ' (NOT MET)' : ''}`);
}
