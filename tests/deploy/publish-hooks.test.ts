/**
 * A hook that publishes to nothing says so and exits non-zero (issue 29 item 4). Before, with the service
 * in containers (or stopped), the hook built on the host, recorded into the host's own store and exited
 * 0: the deployment kept its old build and nobody noticed. The hooks run here as git runs them (`sh
 * post-commit` at the top of the work tree, after a real commit):
 *
 * - the `publish` hook with no service answering at HOST:PORT: the build is recorded for this machine's
 *   next start, and the hook names the build that no running service received and exits 1;
 * - the `rollout` hook (`npm run hooks:install -- --rollout`) runs deploy/rollout.sh; an engine that
 *   fails is reported and the hook exits 1.
 */
import { createServer } from 'node:net';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitEnv, runGit } from '../helpers/git.ts';
import { runScript } from '../helpers/run-script.ts';
import { startServiceProcess, stopServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const PROJECT = path.resolve(import.meta.dirname, '../..');
let repo: string;
let envFile: string;

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'publish-hooks-'));
  repo = path.join(work, 'content-repo');
  await cp(SMALL_CONTENT, path.join(repo, 'content'), { recursive: true });
  await runGit(work, ['init', '--quiet', '--initial-branch=main', repo]);
  await runGit(repo, ['add', 'content']);
  await runGit(repo, ['commit', '--quiet', '-m', 'Content as it was']);
  envFile = path.join(work, 'settings.env');
  await writeFile(
    envFile,
    `PUBLIC_URL=https://reviews.example.com\nHOST=127.0.0.1\nPORT=${await closedPort()}\nDIST_DIR=${path.join(work, 'dist')}\nDATA_DIR=${path.join(work, 'data')}\n`,
  );
}, 60_000);

/** Installs the hooks (`extra` arguments), commits a content change without running them, then runs post-commit as git would. */
async function commitAndRunHook(installArgs: string[], env: Record<string, string> = {}) {
  const installed = await runScript('npm', ['run', '--silent', 'hooks:install', '--', '--force', ...installArgs], {
    cwd: PROJECT,
    env: gitEnv({ ENV_FILE: envFile, CONTENT_DIR: path.join(repo, 'content') }),
  });
  expect(installed.code, installed.stderr).toBe(0);
  const business = path.join(repo, 'content', 'business.json');
  const json = JSON.parse(await readFile(business, 'utf8')) as { name: string };
  await writeFile(business, JSON.stringify({ ...json, name: `${json.name} (changed)` }, null, 2));
  await runGit(repo, ['-c', 'core.hooksPath=/dev/null', 'commit', '--quiet', '-am', 'A change']);
  return runScript('sh', [path.join(repo, '.git', 'hooks', 'post-commit')], { cwd: repo, env: gitEnv({ ENV_FILE: envFile, ...env }) });
}

describe('the publish-on-commit hooks', () => {
  it('with no running service: records the build for the next start, says no service received it, exits 1', async () => {
    const run = await commitAndRunHook([]);
    expect(run.stdout).toContain('reviews: the commit changed content/; publishing (npm run publish)');
    expect(run.stdout, run.stderr).toMatch(/No service is running at http:\/\/127\.0\.0\.1:\d+: the change is recorded in the hub's store/);
    expect(run.stderr).toMatch(/No running service received build [\w-]+\. If the service runs elsewhere \(in containers\), this commit reached nothing/);
    expect(run.stderr).toContain('reviews: the commit was not published to a running service (above).');
    expect(run.code).toBe(1);
  }, 300_000);

  it('with a running service whose hub cannot record (its store away): says the commit is served and notified later, exits 4', async () => {
    const built = await runScript('npm', ['run', '--silent', 'build'], { cwd: PROJECT, env: gitEnv({ ENV_FILE: envFile, CONTENT_DIR: path.join(repo, 'content') }) });
    expect(built.code, built.stderr).toBe(0);
    const settings = Object.fromEntries((await readFile(envFile, 'utf8')).trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
    const service = await startServiceProcess({
      PUBLIC_URL: settings.PUBLIC_URL!,
      DIST_DIR: settings.DIST_DIR!,
      DATA_DIR: settings.DATA_DIR!,
      DATABASE_URL: `postgres://nobody@127.0.0.1:${await closedPort()}/reviews`,
    });
    try {
      const run = await commitAndRunHook([], { PORT: new URL(service.url).port });
      expect(run.stderr).toContain('but its hub could not record the change in its store');
      expect(run.stderr).toContain('reviews: the commit is published and served; its subscribers are notified once the hub');
      expect(run.stderr).not.toContain('was not published to a running service');
      expect(run.code).toBe(4);
    } finally {
      await stopServiceProcess(service);
    }
  }, 300_000);

  it('--rollout: runs deploy/rollout.sh, and when the engine fails says so and exits 1', async () => {
    // `false` stands for a compose engine that cannot build (none installed, a daemon down).
    const run = await commitAndRunHook(['--rollout'], { COMPOSE: 'false' });
    expect(run.stdout).toContain('reviews: the commit changed content/; deploying to the compose stack (deploy/rollout.sh)');
    expect(run.stdout).toContain('rollout: building the image');
    expect(run.stderr).toContain('reviews: deploy/rollout.sh failed (above)');
    expect(run.code).toBe(1);
  }, 60_000);
});
