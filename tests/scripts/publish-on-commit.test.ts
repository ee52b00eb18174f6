/**
 * The "done when", end to end: in a git repository of content, `npm run hooks:install`, then
 * `npm run import -- google takeout.json` and `git commit`: the post-commit hook runs `npm run publish`,
 * the running service (the real sidecar on an ephemeral port) serves the imported reviews, and a real
 * HTTPS subscriber (test CA) is notified. Then a pull that brings a content change (post-merge), and
 * a commit that does not touch content (no publish). The content repository lies outside the project
 * (CONTENT_DIR), and the hooks freeze no setting: publishing reads the settings file (ENV_FILE here, the
 * project's .env by default) when a commit runs it.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { gitEnv, runGit } from '../helpers/git.ts';
import { runScript } from '../helpers/run-script.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import { REVIEWS_CALLBACK as CALLBACK, startSubscribedService } from '../helpers/subscribed-service.ts';

const PUBLIC = 'https://reviews.example.com';
const PROJECT = path.resolve('.');
const TAKEOUT = path.resolve('tests/fixtures/import/google-takeout.json');

let envFile: string | undefined;

const git = async (cwd: string, ...args: string[]) => {
  const { stdout, stderr } = await runGit(cwd, args, envFile ? { ENV_FILE: envFile } : {});
  return stdout + stderr;
};

const npmRun = (args: string[], env: NodeJS.ProcessEnv) => runScript('npm', ['run', '--silent', ...args], { cwd: PROJECT, env });

let running: Awaited<ReturnType<typeof startSubscribedService>>;
let repo: string;
let contentDir: string;
let distDir: string;

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'publish-on-commit-'));
  repo = path.join(work, 'reviews-content');
  contentDir = path.join(repo, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await git(work, 'init', '--quiet', '--initial-branch=main', repo);
  await git(repo, 'add', 'content');
  await git(repo, 'commit', '--quiet', '-m', 'Content as it was');
  running = await startSubscribedService({ contentDir, distDir, workDir: work, publicUrl: PUBLIC });
  envFile = path.join(work, 'settings.env');
  const { port } = new URL(running.service.url);
  await writeFile(envFile, `# The owner's settings\nDIST_DIR=${distDir}\nDATA_DIR=${path.join(work, 'data')}\nPUBLIC_URL=${PUBLIC}\nHOST=127.0.0.1\nPORT=${port}\n`);
}, 300_000);

afterAll(() => running?.close());

const servedReviewIds = async () => {
  const dataset = (await fetch(`${running.service.url}/reviews.json`).then((r) => r.json())) as { reviews: { id: string }[] };
  return dataset.reviews.map((r) => r.id);
};

describe('publish on commit', () => {
  it('npm run hooks:install puts post-commit and post-merge hooks into the content’s repository, freezing no setting', async () => {
    const { port } = new URL(running.service.url);
    const run = await npmRun(['hooks:install'], gitEnv({ ENV_FILE: envFile!, CONTENT_DIR: contentDir }));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Installed post-commit and post-merge in ${path.join(repo, '.git', 'hooks')}.`);
    expect(run.stdout).toContain(`Publishing reads its settings from ${envFile} when it runs`);
    const hook = await readFile(path.join(repo, '.git', 'hooks', 'post-commit'), 'utf8');
    expect(hook).not.toContain(port);
    expect(hook).not.toContain(PUBLIC);
  });

  it('import, commit: the hook publishes, the service serves the reviews and the hub notifies the subscriber', async () => {
    const imported = await npmRun(['import', '--', 'google', TAKEOUT], gitEnv({ ENV_FILE: envFile!, CONTENT_DIR: contentDir }));
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Summary: 5 added, 0 updated, 0 unchanged, 2 skipped');
    const newId = deriveReviewId('google', 'AbFvOqTr1sLaTeD0nE_es9Xw2Qe4Rt6Yu8Io0Pa');
    expect(await servedReviewIds()).not.toContain(newId);

    await git(repo, 'add', 'content');
    const commit = await git(repo, 'commit', '-m', 'Reviews from Google Takeout');
    expect(commit).toContain('reviews: the commit changed content/; publishing (npm run publish)');
    expect(commit).toMatch(/^ {2}changed {4}\S+\/reviews\.json \(1 subscriber\)$/m);
    expect(commit).toContain(`The service at ${running.service.url} now serves build`);

    // publish returned only once the service served the new build.
    expect(await servedReviewIds()).toContain(newId);
    const pushed = await running.subscriber.waitForNotification(CALLBACK, (r) => r.body.includes(newId), 60_000);
    const live = await fetch(`${running.service.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(pushed.body.equals(Buffer.from(await live.arrayBuffer()))).toBe(true);
  }, 300_000);

  it('a commit that does not touch the content folder publishes nothing', async () => {
    await writeFile(path.join(repo, 'NOTES.md'), 'Ask Dana about the Chatham invoice.\n');
    await git(repo, 'add', 'NOTES.md');
    const commit = await git(repo, 'commit', '-m', 'Notes');
    expect(commit).not.toContain('publishing');
  });

  it('a pull that brings a content change publishes it (post-merge)', async () => {
    const elsewhere = path.join(path.dirname(repo), 'laptop');
    await git(path.dirname(repo), 'clone', '--quiet', repo, elsewhere);
    const file = path.join(elsewhere, 'content', 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'r-0200', rating: 5, date: '2025-02-27', text: 'Added on the laptop, published by the pull.', author: 'Kim', verified: true });
    await writeFile(file, JSON.stringify(reviews, null, 2));
    await git(elsewhere, 'commit', '--quiet', '-am', 'One more review');

    const pull = await git(repo, 'pull', '--quiet', '--no-rebase', elsewhere, 'main');
    expect(pull).toContain('reviews: the merge changed content/; publishing (npm run publish)');
    expect(pull).toContain('now serves build');
    expect(await servedReviewIds()).toContain('r-0200');
    await running.subscriber.waitForNotification(CALLBACK, (r) => r.body.includes('r-0200'), 60_000);
  }, 300_000);

  it('leaves another tool’s hook alone unless told to replace it', async () => {
    const other = path.join(path.dirname(repo), 'other');
    await git(path.dirname(repo), 'init', '--quiet', other);
    await writeFile(path.join(other, '.git', 'hooks', 'post-merge'), '#!/bin/sh\necho lint\n');
    const refused = await npmRun(['hooks:install'], gitEnv({ CONTENT_DIR: other }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${path.join(other, '.git', 'hooks', 'post-merge')} already exists and is not ours`);
    const forced = await npmRun(['hooks:install', '--', '--force'], gitEnv({ CONTENT_DIR: other }));
    expect(forced.code).toBe(0);
    expect(await readFile(path.join(other, '.git', 'hooks', 'post-merge'), 'utf8')).toContain('npm run --silent publish');
  });
});
