/**
 * `--commit`: what a sync wrote, as one commit of the content repository (the reviews, their photos and
 * the reasons of withdrawn ones only, whatever else is staged there), so that the post-commit hook (scripts/hooks/) publishes it and a
 * scheduled workflow can push it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { WITHDRAWN_FILE } from '../../core/content/read-withdrawn.ts';

const run = promisify(execFile);

export async function commitSync(contentDir: string, message: string): Promise<{ ok: true; commit: string } | { ok: false; message: string }> {
  const git = (...args: string[]) => run('git', args, { cwd: contentDir });
  try {
    await git('rev-parse', '--git-dir');
  } catch {
    return { ok: false, message: `${contentDir} is not in a git repository (git init it, or leave out --commit)` };
  }
  const paths = ['reviews', 'media', WITHDRAWN_FILE].filter((name) => existsSync(path.join(contentDir, name)));
  try {
    await git('add', '--all', '--', ...paths);
    await git('commit', '--quiet', '-m', message, '--', ...paths);
    return { ok: true, commit: (await git('rev-parse', '--short', 'HEAD')).stdout.trim() };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return { ok: false, message: `git: ${stderr || (error as Error).message}` };
  }
}
