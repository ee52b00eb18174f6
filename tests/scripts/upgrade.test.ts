/**
 * Upgrades never touch the owner's content (issue 18 item 6): the project tracks no `content/`, so an
 * owner who keeps their business in `content/` of their clone (committed there, with a `.env`) pulls an
 * upstream commit without a conflict, and the pull changes nothing of theirs. Real git repositories: the
 * upstream is a clone of this project, the owner's a clone of that.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit } from '../helpers/git.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const PROJECT = path.resolve(import.meta.dirname, '../..');

const git = async (cwd: string, ...args: string[]) => (await runGit(cwd, args)).stdout;

describe('upgrading a clone that holds the owner’s business', () => {
  it('the project tracks no content/ and ignores .env and the build and data folders', async () => {
    const tracked = await git(PROJECT, 'ls-files', '--', 'content', '.env', 'dist', '.builds', '.data');
    expect(tracked).toBe('');
    const ignored = await git(PROJECT, 'check-ignore', '--no-index', '.env', 'dist', '.builds/x', '.data/x');
    expect(ignored.trim().split('\n')).toEqual(['.env', 'dist', '.builds/x', '.data/x']);
  });

  it('git pull of an upstream commit merges without a conflict and leaves content/ and .env as they were', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'upgrade-'));
    const upstream = path.join(work, 'upstream');
    const owner = path.join(work, 'owner');
    await git(work, 'clone', '--quiet', '--depth', '1', `file://${PROJECT}`, upstream);
    await git(work, 'clone', '--quiet', upstream, owner);

    // The owner's business, committed in their clone, and their settings.
    await cp(SMALL_CONTENT, path.join(owner, 'content'), { recursive: true });
    await writeFile(path.join(owner, '.env'), 'PUBLIC_URL=https://reviews.owner.example\n');
    await git(owner, 'add', 'content');
    await git(owner, 'commit', '--quiet', '-m', 'Our business');
    const before = await git(owner, 'ls-tree', '-r', 'HEAD', '--', 'content');

    // Upstream moves on: code, docs and the demo change.
    await writeFile(path.join(upstream, 'docs', 'owner.md'), `${await readFile(path.join(upstream, 'docs', 'owner.md'), 'utf8')}\nA new line from upstream.\n`);
    const demoBusiness = path.join(upstream, 'examples', 'demo', 'business.json');
    await writeFile(demoBusiness, (await readFile(demoBusiness, 'utf8')).replace(/"telephone": "[^"]*"/, '"telephone": "+1-555-0000"'));
    await git(upstream, 'commit', '--quiet', '-am', 'Upstream change');

    await git(owner, 'pull', '--quiet', '--no-rebase', '--no-edit', 'origin', 'HEAD');
    expect(await git(owner, 'status', '--porcelain')).toBe('');
    expect(await git(owner, 'ls-tree', '-r', 'HEAD', '--', 'content')).toBe(before);
    expect(await git(owner, 'diff', '--name-only', 'HEAD@{1}', 'HEAD')).not.toMatch(/^content\//m);
    expect(await readFile(path.join(owner, 'docs', 'owner.md'), 'utf8')).toContain('A new line from upstream.');
    expect(await readFile(path.join(owner, '.env'), 'utf8')).toBe('PUBLIC_URL=https://reviews.owner.example\n');
  });
});
