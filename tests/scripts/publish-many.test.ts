/**
 * Every publish goes live, any number of times (issue 18 item 1). The real service process (as
 * `npm start` runs it: Node's own module loader, one process for all the builds) and six commits in a
 * row to the content's git repository, each with a new review, each published by the post-commit hook
 * (`npm run hooks:install`, which runs `npm run publish` as a user runs it): each build is served
 * (its datasets, its summary, its search page's answers), `/readyz` names it, and a WebSub subscriber
 * receives each change. Then a build that cannot be loaded is named in `/readyz`'s body (still 200: the
 * last good build is served), and the publish that pings for it exits non-zero with the service's own
 * reason; the next good publish heals.
 */
import { ReadinessSchema } from '../../core/schemas/readiness.ts';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateBuild, buildsDirOf } from '../../core/publishing/build-folders-fs.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { gitEnv, runGit } from '../helpers/git.ts';
import { runScript } from '../helpers/run-script.ts';
import { startSubscribedServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import { waitUntil } from '../websub/harness.ts';
import { useTestSubscriber } from '../websub/test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const CALLBACK = '/many/reviews-json';
/** Words no review of the fixture has: each publish's new review is the only answer to its word. */
// Six, as the issue asks: well past BUILDS_KEPT, so the first builds' folders are gone while the service
// still runs (the measured failure began at the third publish, when the build it started with was deleted).
const WORDS = ['zorblax', 'quimbly', 'frandle', 'plonkish', 'wibberly', 'glomph'];
/** Each publish is a full build: tens of seconds on a busy machine. */
const PUBLISH_TIMEOUT_MS = 150_000;

const t = useTestSubscriber();
let work: string;
let contentDir: string;
let distDir: string;
let service: ServiceProcess;
let repo: string;
/** The owner's settings file, read by `npm run publish` when the hook runs it. */
let envFile: string;

const git = (...args: string[]) => runGit(repo, args, { ENV_FILE: envFile });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'publish-many-'));
  repo = path.join(work, 'reviews-content');
  contentDir = path.join(repo, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  service = await startSubscribedServiceProcess({ contentDir, distDir, workDir: work, publicUrl: PUBLIC, subscriber: t, topic: urls.reviewsJson, callbackPath: CALLBACK });

  envFile = path.join(work, 'settings.env');
  const { port } = new URL(service.url);
  await writeFile(envFile, `DIST_DIR=${distDir}\nDATA_DIR=${path.join(work, 'data')}\nPUBLIC_URL=${PUBLIC}\nHOST=127.0.0.1\nPORT=${port}\n`);
  await runGit(work, ['init', '--quiet', '--initial-branch=main', repo]);
  await git('add', 'content');
  await git('commit', '--quiet', '-m', 'Content as it was');
  const hooks = await runScript('npm', ['run', '--silent', 'hooks:install'], { env: gitEnv({ ENV_FILE: envFile, CONTENT_DIR: contentDir }) });
  expect(hooks.stderr).toBe('');
  expect(hooks.code).toBe(0);
}, PUBLISH_TIMEOUT_MS);

afterAll(async () => {
  if (service) await stopServiceProcess(service);
  if (work) await rm(work, { recursive: true, force: true });
});

function publish(args: string[] = []) {
  const { port } = new URL(service.url);
  return runScript(process.execPath, ['scripts/publish.ts', ...args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: port, PUBLIC_URL: PUBLIC, CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: path.join(work, 'data') },
  });
}

async function addReview(id: string, word: string) {
  const file = path.join(contentDir, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8'));
  reviews.push({ id, rating: 1, date: '2025-03-01', text: `The ${word} valve leaked again.`, author: 'Robin', verified: true });
  await writeFile(file, JSON.stringify(reviews));
}

const manifestOf = async () => JSON.parse(await readFile(path.join(distDir, '_manifest.json'), 'utf8'));
const getJson = async (p: string) => (await fetch(`${service.url}${p}`)).json();
const summaryText = async () => ((await getJson('/insights.json')) as { summary: { text: string } }).summary.text;
const readiness = async () => {
  const res = await fetch(`${service.url}/readyz`);
  return { status: res.status, body: ReadinessSchema.parse(await res.json()) };
};
const searchPageIds = async (word: string) => {
  const html = await (await fetch(`${service.url}/search/?query=${word}`)).text();
  return [...html.matchAll(/<article class="review" id="([^"]+)"/g)].map((m) => m[1]);
};

describe('publishing into one running service', () => {
  it('serves and notifies each of six commits in a row, each published by the hook', async () => {
    const countOf = (summary: string) => Number(/Based on (\d+) verified reviews/.exec(summary)?.[1]);
    const firstCount = countOf(await summaryText());
    expect(firstCount).toBeGreaterThan(0);
    for (const [i, word] of WORDS.entries()) {
      const id = `r-07${i}0`;
      await addReview(id, word);
      // The hook's output: git passes it through; a failed publish says so but cannot fail the commit.
      const commit = await git('commit', '-am', `Review ${id}`);
      const said = commit.stdout + commit.stderr;
      expect(said, `commit ${i + 1}`).toContain('reviews: the commit changed content/; publishing (npm run publish)');
      expect(said, `commit ${i + 1}`).not.toContain('npm run publish failed');
      const manifest = await manifestOf();
      expect(said, `commit ${i + 1}`).toContain(`now serves build ${manifest.build_id}`);

      expect(await readiness()).toMatchObject({ status: 200, body: { status: 'ready', build: { served: manifest.build_id, failed: null }, store: { state: 'open' } } });
      const reviews = await fetch(`${service.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
      expect(reviews.headers.get('etag')).toBe(manifest.files['/reviews.json'].etag);
      expect(((await reviews.json()) as { reviews: { id: string }[] }).reviews.map((r) => r.id)).toContain(id);
      expect(countOf(await summaryText()), `the summary of publish ${i + 1}`).toBe(firstCount + i + 1);
      expect(await searchPageIds(word), `the search page of publish ${i + 1}`).toEqual([id]);
      const pushed = await t.sub.waitForNotification(CALLBACK, (r) => r.body.includes(id), 30_000);
      expect(JSON.parse(pushed.body.toString()).reviews.map((r: { id: string }) => r.id)).toContain(id);
    }
    expect(t.sub.notifications(CALLBACK)).toHaveLength(WORDS.length);
    expect(service.output()).not.toContain('build_reload_failed');
  }, WORDS.length * PUBLISH_TIMEOUT_MS);

  it('a build that cannot be loaded: /readyz names it (still ready, serving the last good build), the publish exits 1 with the reason, the next publish heals', async () => {
    const served = await readiness();
    const good = await manifestOf();
    // A complete-looking build whose dataset is not a dataset, swapped in as a publish swaps one.
    const broken = path.join(buildsDirOf(distDir), 'build-broken-by-test');
    await cp(path.join(distDir, '.'), broken, { recursive: true, dereference: true });
    await writeFile(path.join(broken, 'reviews.json'), '{"reviews": "none"}');
    await writeFile(path.join(broken, '_manifest.json'), JSON.stringify({ ...good, build_id: 'brokenbyatest001' }));
    await activateBuild(broken, distDir);

    // Still ready (it serves its last good build), and the body names the build it could not load.
    const failed = await waitUntil(async () => {
      const now = await readiness();
      return now.body.build.failed ? { value: now } : undefined;
    }, 15_000);
    expect(failed.status).toBe(200);
    expect(failed.body.build).toMatchObject({ served: served.body.build.served, failed: { build: 'brokenbyatest001', dir: broken } });
    expect(failed.body.build.failed!.message).toContain('reviews.json does not match its schema');
    // Still serving the last good build, whole.
    const reviews = await fetch(`${service.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(reviews.headers.get('etag')).toBe(good.files['/reviews.json'].etag);

    const ping = await publish(['--ping-only', service.url]);
    expect(ping.code).toBe(1);
    expect(ping.stderr).toContain(`could not load build brokenbyatest001 (${broken}): `);
    expect(ping.stderr).toContain(`it still serves build ${served.body.build.served}`);

    // The next publish builds and serves a good one.
    await addReview('r-0790', 'healed');
    const healed = await publish();
    expect(healed.stderr).toBe('');
    expect(healed.code).toBe(0);
    const manifest = await manifestOf();
    expect(await readiness()).toMatchObject({ status: 200, body: { build: { served: manifest.build_id, failed: null } } });
    expect(await searchPageIds('healed')).toEqual(['r-0790']);
  }, 2 * PUBLISH_TIMEOUT_MS);
});
