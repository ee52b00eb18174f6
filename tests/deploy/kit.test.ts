/**
 * The deployment kit under deploy/ (issue 19 items 2 and 3) holds together: the systemd unit passes
 * `systemd-analyze verify` and has its hardening, the Caddyfile passes `caddy validate` at the root and
 * under a path, and compose.yaml runs two sidecars of one image on one PostgreSQL behind Caddy. The nginx
 * configurations run for real in `npm run bench -- proxy`, and the whole kit with podman in
 * tools/deploy-kit/run.sh; both nginx files pass `nginx -t`. The tools run when this machine has them
 * (Debian: systemd, caddy, nginx); the files' own checks always run: retries to another upstream,
 * /metrics refused at the proxy, a stop grace period above the service's own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MANIFEST_FILE } from '../../core/publishing/manifest.ts';

const ROOT = path.join(import.meta.dirname, '../..');
const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');
const has = (tool: string) => !spawnSync(tool, ['--version'], { encoding: 'utf8' }).error;

describe('deploy/systemd/reviews.service', () => {
  it('reads its configuration from a file, restarts on failure, and may write only data, builds and the build cache', async () => {
    const unit = await read('deploy/systemd/reviews.service');
    const settings = new Map([...unit.matchAll(/^(\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(settings.get('EnvironmentFile')).toBe('/etc/reviews.env');
    expect(settings.get('Restart')).toBe('on-failure');
    expect(settings.get('NoNewPrivileges')).toBe('yes');
    expect(settings.get('ProtectSystem')).toBe('strict');
    expect(settings.get('ReadWritePaths')).toBe('/var/lib/reviews /opt/reviews/node_modules/.cache /opt/reviews/.astro');
    expect(settings.get('Environment')).toBe('DATA_DIR=/var/lib/reviews/data DIST_DIR=/var/lib/reviews/build/dist');
    expect(settings.get('User')).not.toBe('root');
  });

  it('passes systemd-analyze verify, installed where this project is', async () => {
    if (!has('systemd-analyze')) return expect(await read('deploy/systemd/reviews.service')).toContain('[Install]');
    const dir = await mkdtemp(path.join(tmpdir(), 'reviews-unit-'));
    const file = path.join(dir, 'reviews.service');
    await writeFile(file, (await read('deploy/systemd/reviews.service')).replaceAll('/opt/reviews', ROOT));
    const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('deploy/systemd/reviews-sync.service and .timer', () => {
  it('runs the sync once an hour as the service user, committing, with the service hardening', async () => {
    const unit = await read('deploy/systemd/reviews-sync.service');
    const settings = new Map([...unit.matchAll(/^(\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(settings.get('Type')).toBe('oneshot');
    expect(settings.get('ExecStart')).toBe('/opt/reviews/node_modules/.bin/node scripts/sync/main.ts google --commit');
    expect(settings.get('EnvironmentFile')).toBe('/etc/reviews.env');
    expect(settings.get('User')).toBe('reviews');
    expect(settings.get('ProtectSystem')).toBe('strict');
    expect(settings.get('ReadWritePaths')).toContain('/opt/reviews/content');
    const timer = await read('deploy/systemd/reviews-sync.timer');
    expect(timer).toMatch(/^OnCalendar=hourly$/m);
    expect(timer).toMatch(/^Unit=reviews-sync.service$/m);
  });

  it('passes systemd-analyze verify, installed where this project is', async () => {
    if (!has('systemd-analyze')) return expect(await read('deploy/systemd/reviews-sync.timer')).toContain('[Install]');
    const dir = await mkdtemp(path.join(tmpdir(), 'reviews-unit-'));
    for (const name of ['reviews-sync.service', 'reviews-sync.timer']) {
      await writeFile(path.join(dir, name), (await read(`deploy/systemd/${name}`)).replaceAll('/opt/reviews', ROOT));
    }
    const run = spawnSync('systemd-analyze', ['verify', path.join(dir, 'reviews-sync.timer'), path.join(dir, 'reviews-sync.service')], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('deploy/caddy/Caddyfile', () => {
  it('is valid at the root of a host and under a path, proxying with the path kept', async () => {
    const caddyfile = await read('deploy/caddy/Caddyfile');
    expect(caddyfile).toContain('flush_interval -1');
    expect(caddyfile).toContain('health_uri /readyz');
    // Retries another sidecar for what one could not answer, and checks readiness more often than a
    // sidecar drains at a stop (compose.yaml's SHUTDOWN_DRAIN_SECONDS).
    expect(caddyfile).toMatch(/^\s*lb_try_duration \d+s$/m);
    const interval = Number(/^\s*health_interval (\d+)s$/m.exec(caddyfile)?.[1]);
    const compose = parse(await read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(interval).toBeLessThan(Number(compose.services['sidecar-1']?.environment?.SHUTDOWN_DRAIN_SECONDS));
    // /metrics is for operators: refused at the proxy, at the root and under the path.
    expect(caddyfile).toContain('@metrics path /metrics {$REVIEWS_PATH:}/metrics');
    expect(caddyfile).toContain('respond @metrics "Forbidden" 403');
    if (!has('caddy')) return;
    for (const env of [{}, { REVIEWS_PATH: '/reviews', REVIEWS_UPSTREAMS: 'sidecar-1:4321 sidecar-2:4321' }]) {
      const run = spawnSync('caddy', ['adapt', '--config', path.join(ROOT, 'deploy/caddy/Caddyfile'), '--adapter', 'caddyfile', '--validate'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
      expect(run.status, run.stderr).toBe(0);
      const json = JSON.stringify(JSON.parse(run.stdout));
      if ('REVIEWS_PATH' in env) {
        expect(json).toContain('"path":["/reviews","/reviews/*"]');
        expect(json).toContain('"dial":"sidecar-2:4321"');
      } else expect(json).toContain('"path":["/*"]');
      expect(json).toContain('"try_duration":5000000000');
      expect(json).toContain('"status_code":403');
    }
  });
});

describe('deploy/compose.yaml', () => {
  it('runs two sidecars of one image on one PostgreSQL and one volume, one of them building, behind Caddy', async () => {
    type Service = { image?: string; build?: { context: string; args?: Record<string, string> }; command?: string[]; environment?: Record<string, string>; volumes?: string[]; depends_on?: unknown };
    const compose = parse(await read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Service> };
    const { services } = compose;
    const sidecars = Object.entries(services).filter(([name]) => name.startsWith('sidecar'));
    expect(sidecars).toHaveLength(2);
    const [[, one], [, two]] = sidecars as [[string, Service], [string, Service]];
    expect(one.image).toBe(two.image);
    expect(one.build?.context).toBe('..');
    expect(one.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(two.environment?.DATABASE_URL).toBe(one.environment?.DATABASE_URL);
    expect(two.environment?.MCP_SESSION_SECRET).toBe(one.environment?.MCP_SESSION_SECRET);
    expect(one.environment?.TRUST_PROXY).toBe('uniquelocal');
    // One volume, one builder (issue 41 item 4): sidecar-1 runs the image's `npm start`, which builds into
    // the volume, with the key there; sidecar-2 only serves. A volume each would sign two histories.
    expect(one.volumes).toEqual(['data:/app/data']);
    expect(two.volumes).toEqual(['data:/app/data']);
    expect(one.command).toBeUndefined();
    // It waits for sidecar-1's first build (tools/deploy-kit/compose-first-start.sh), then is serve.ts.
    const distDir = /DIST_DIR=(\S+)/.exec(await read('Dockerfile'))?.[1];
    expect(two.command?.slice(0, 2)).toEqual(['sh', '-c']);
    expect(two.command?.[2]).toBe(`until [ -e ${distDir}/${MANIFEST_FILE} ]; do sleep 1; done; exec node --import=./scripts/lib/compile-cache.ts --max-semi-space-size=16 scripts/serve.ts`);
    // The image is code and content: the public address is the containers' setting, not the image's.
    expect(one.build?.args).toEqual({ CONTENT_DIR: '${CONTENT_DIR:-content}' });
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.caddy?.environment?.REVIEWS_UPSTREAMS).toBe(sidecars.map(([name]) => `${name}:4321`).join(' '));
    expect(services.caddy?.volumes).toContain('./caddy/Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('can run the Google sync on demand (profile sync) on the same image, writing the content folder', async () => {
    type Sync = { image?: string; profiles?: string[]; command?: string[]; environment?: Record<string, string>; volumes?: string[] };
    const { services } = parse(await read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Sync> };
    expect(services.sync?.profiles).toEqual(['sync']);
    expect(services.sync?.image).toBe(services['sidecar-1']?.image);
    expect(services.sync?.command).toEqual(['node', 'scripts/sync/main.ts', 'google']);
    expect(services.sync?.environment?.CONTENT_DIR).toBe('/app/content');
    expect(services.sync?.volumes).toEqual(['../${CONTENT_DIR:-content}:/app/content']);
  });

  it('gives each sidecar longer to stop than the service itself takes (drain + in-flight timeout)', async () => {
    type Service = { stop_grace_period?: string; environment?: Record<string, string> };
    const { services } = parse(await read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Service> };
    for (const name of ['sidecar-1', 'sidecar-2']) {
      const service = services[name]!;
      const grace = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]);
      const own = Number(service.environment?.SHUTDOWN_DRAIN_SECONDS) + Number(service.environment?.SHUTDOWN_TIMEOUT_SECONDS);
      expect(own, name).toBeGreaterThan(0);
      expect(grace, name).toBeGreaterThan(own);
    }
  });
});

describe('deploy/nginx', () => {
  it.each(['reviews.conf', 'reviews-under-path.conf'])('%s retries another upstream and refuses /metrics', async (file) => {
    const conf = await read(`deploy/nginx/${file}`);
    expect(conf).toMatch(/^\s*proxy_next_upstream error timeout;$/m);
    expect(conf).toMatch(/^\s*server 127\.0\.0\.1:4321 max_fails=1 fail_timeout=\d+s;$/m);
    expect(conf).toMatch(new RegExp(`location = ${file === 'reviews.conf' ? '' : '/reviews'}/metrics \\{\\s*return 403;`));
  });

  it.each(['reviews.conf', 'reviews-under-path.conf'])('%s passes nginx -t, with a local certificate and ports', async (file) => {
    if (!has('nginx')) return;
    const dir = await mkdtemp(path.join(tmpdir(), 'reviews-nginx-'));
    const cert = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=reviews.test'], { encoding: 'utf8' });
    expect(cert.status, cert.stderr).toBe(0);
    const site = (await read(`deploy/nginx/${file}`))
      .replace(/\/etc\/letsencrypt\/live\/[^;]*\/fullchain\.pem/g, `${dir}/cert.pem`)
      .replace(/\/etc\/letsencrypt\/live\/[^;]*\/privkey\.pem/g, `${dir}/key.pem`)
      .replace(/\/var\/cache\/nginx\/reviews/g, `${dir}/cache`)
      .replace(/listen (\[::\]:)?(443|80)\b/g, (_m, v6: string | undefined, port: string) => `listen ${v6 ?? ''}${port === '443' ? 18443 : 18080}`);
    await writeFile(path.join(dir, 'site.conf'), site);
    await writeFile(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  include ${dir}/site.conf;\n}\n`);
    const run = spawnSync('nginx', ['-t', '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(run.stderr).toContain('test is successful');
  });
});
