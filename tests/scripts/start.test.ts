import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { whenListening } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

/** Runs `npm start`'s script as a user would, with environment variables only; resolves once it listens. */
function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/start.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const { listening, output } = whenListening(child);
  const stop = () => new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { listening, stop, output };
}

describe('npm start', () => {
  it('builds when the build is missing or stale, serves it, and rebuilds after a content change', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'start-'));
    const content = path.join(work, 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    const env = { PORT: '0', PUBLIC_URL: 'https://reviews.example.org', CONTENT_DIR: content, DIST_DIR: path.join(work, 'dist'), DATA_DIR: path.join(work, 'data') };

    const first = start(env);
    const url = await first.listening;
    expect(first.output()).toContain('No build yet: building');
    const dataset = await (await fetch(`${url}/reviews.json`)).json();
    expect(dataset.aggregate_rating.review_count).toBe(7);
    expect(dataset.reviews[0].url).toMatch(/^https:\/\/reviews\.example\.org\/reviews\//);
    await first.stop();

    const unchanged = start(env);
    await unchanged.listening;
    expect(unchanged.output()).not.toContain('building');
    await unchanged.stop();

    const file = path.join(content, 'reviews/2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'r-0100', rating: 5, date: '2025-03-01', text: 'New one.', author: 'New', verified: true });
    await writeFile(file, JSON.stringify(reviews));
    const changed = start(env);
    const url3 = await changed.listening;
    expect(changed.output()).toContain('Content or code changed since the last build: rebuilding');
    expect((await (await fetch(`${url3}/reviews.json`)).json()).aggregate_rating.review_count).toBe(8);
    await changed.stop();
  }, 90_000);

  it('refuses invalid configuration with one line per problem', async () => {
    const run = start({ PORT: 'eighty', PUBLIC_URL: 'https://x.example/some/path?q=1' });
    await expect(run.listening).rejects.toThrow(/PORT:[\s\S]*/);
  });
});
