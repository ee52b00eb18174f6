/**
 * `.github/workflows/publish.yml`, checked without GitHub or the network: it is YAML with the structure
 * docs/deploy.md promises (trigger, order of steps, the upload action, the ping), every script it runs
 * exists in package.json, and its "did code change?" step, run with bash in a real git repository,
 * decides as it should.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const WORKFLOW = path.resolve('.github/workflows/publish.yml');

const StepSchema = z.strictObject({
  name: z.string().optional(),
  id: z.string().optional(),
  if: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
type Step = z.infer<typeof StepSchema>;

const WorkflowSchema = z.strictObject({
  name: z.string(),
  on: z.strictObject({ push: z.strictObject({ paths: z.array(z.string()) }), workflow_dispatch: z.null() }),
  permissions: z.record(z.string(), z.string()),
  concurrency: z.strictObject({ group: z.string(), 'cancel-in-progress': z.boolean() }),
  jobs: z.record(
    z.string(),
    z.strictObject({ if: z.string(), 'runs-on': z.string(), 'timeout-minutes': z.number(), steps: z.array(StepSchema) }),
  ),
});

async function readWorkflow() {
  return WorkflowSchema.parse(parse(await readFile(WORKFLOW, 'utf8')));
}

describe('.github/workflows/publish.yml', () => {
  it('runs on a push that touches content/, on the default branch only, one at a time, reading the repository only', async () => {
    const workflow = await readWorkflow();
    expect(workflow.on.push.paths).toEqual(['content/**']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    expect(Object.values(workflow.jobs)).toHaveLength(1);
    expect(workflow.jobs.publish!.if).toBe('github.ref_name == github.event.repository.default_branch');
  });

  it('installs, tests only when code changed, builds, uploads dist/ with the official action, then pings the hub', async () => {
    const steps = (await readWorkflow()).jobs.publish!.steps;
    const at = (predicate: (s: Step) => boolean) => steps.findIndex(predicate);
    const checkout = at((s) => s.uses === 'actions/checkout@v4');
    const node = at((s) => s.uses === 'actions/setup-node@v4' && s.with?.['node-version'] === 24);
    const install = at((s) => s.run === 'npm ci');
    const changes = at((s) => s.id === 'changes');
    const test = at((s) => s.run === 'npm test');
    const build = at((s) => s.run === 'npm run build');
    const upload = at((s) => s.uses === 'cloudflare/wrangler-action@v3');
    const ping = at((s) => s.run?.startsWith('npm run publish -- --ping-only ') === true);
    expect([checkout, node, install, changes, test, build, upload, ping]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(steps[checkout]!.with?.['fetch-depth']).toBe(0);
    expect(steps[test]!.if).toBe("steps.changes.outputs.code == 'true'");
    // The log's keys as secrets (docs/log.md): a CI machine has no DATA_DIR.
    expect(steps[build]!.env).toEqual({ PUBLIC_URL: '${{ vars.PUBLIC_URL }}', LOG_SIGNING_KEY: '${{ secrets.LOG_SIGNING_KEY }}', LOG_JOBS_KEY: '${{ secrets.LOG_JOBS_KEY }}' });
    expect(String(steps[upload]!.with?.command)).toMatch(/^pages deploy dist /);
    expect(steps[ping]!.env).toEqual({ PUBLIC_URL: '${{ vars.PUBLIC_URL }}', SIDECAR_URL: '${{ vars.SIDECAR_URL }}' });
  });

  it('runs only scripts that package.json has', async () => {
    const scripts = JSON.parse(await readFile('package.json', 'utf8')).scripts as Record<string, string>;
    const runs = (await readWorkflow()).jobs.publish!.steps.flatMap((s) => [...(s.run ?? '').matchAll(/npm (?:run (\S+)|test)/g)].map((m) => m[1] ?? 'test'));
    expect(runs).toEqual(['test', 'build', 'publish']);
    for (const name of runs) expect(scripts[name], name).toBeDefined();
  });

  describe('the "did code change?" step', () => {
    const git = (cwd: string, ...args: string[]) =>
      promisify(execFile)('git', args, {
        cwd,
        env: { ...process.env, GIT_AUTHOR_NAME: 'CI', GIT_AUTHOR_EMAIL: 'ci@example.com', GIT_COMMITTER_NAME: 'CI', GIT_COMMITTER_EMAIL: 'ci@example.com', GIT_CONFIG_GLOBAL: '/dev/null' },
      }).then((r) => r.stdout.trim());

    async function decide(repo: string, before: string): Promise<string> {
      const script = (await readWorkflow()).jobs.publish!.steps.find((s) => s.id === 'changes')!.run!;
      const output = path.join(repo, '..', `output-${Math.random().toString(36).slice(2)}`);
      await writeFile(output, '');
      await promisify(execFile)('bash', ['-e', '-c', script], { cwd: repo, env: { ...process.env, BEFORE: before, GITHUB_OUTPUT: output } });
      return (await readFile(output, 'utf8')).trim();
    }

    it.each([
      ['content only', ['content/reviews/2026-01.json'], 'code=false'],
      ['content and code', ['content/reviews/2026-01.json', 'core/urls.ts'], 'code=true'],
      ['code only', ['README.md'], 'code=true'],
    ])('%s → %s', async (_what, files, expected) => {
      const repo = path.join(await mkdtemp(path.join(tmpdir(), 'workflow-')), 'repo');
      await mkdir(path.join(repo, 'content', 'reviews'), { recursive: true });
      await mkdir(path.join(repo, 'core'), { recursive: true });
      await git(path.dirname(repo), 'init', '--quiet', repo);
      await writeFile(path.join(repo, 'README.md'), 'v1\n');
      await git(repo, 'add', '.');
      await git(repo, 'commit', '--quiet', '-m', 'first');
      const before = await git(repo, 'rev-parse', 'HEAD');
      for (const file of files) await writeFile(path.join(repo, file), `changed ${file}\n`);
      await git(repo, 'add', '.');
      await git(repo, 'commit', '--quiet', '-m', 'push');
      expect(await decide(repo, before)).toBe(expected);
    });

    it('tests when there is no previous commit to compare with (a new branch, a manual run)', async () => {
      const repo = path.join(await mkdtemp(path.join(tmpdir(), 'workflow-')), 'repo');
      await mkdir(path.join(repo, 'content'), { recursive: true });
      await git(path.dirname(repo), 'init', '--quiet', repo);
      await writeFile(path.join(repo, 'content', 'x.json'), '[]\n');
      await git(repo, 'add', '.');
      await git(repo, 'commit', '--quiet', '-m', 'first');
      expect(await decide(repo, '0000000000000000000000000000000000000000')).toBe('code=true');
      expect(await decide(repo, '')).toBe('code=true');
    });
  });
});
