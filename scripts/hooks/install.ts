/**
 * `npm run hooks:install [-- --force] [-- --rollout]`: installs the `post-commit` and `post-merge` hooks
 * (hook-script.ts) into the git repository that holds CONTENT_DIR: this project's own repository, or
 * a separate repository of content. The hooks go where git looks for them (`git rev-parse --git-path
 * hooks`, so `core.hooksPath` and worktrees are honoured).
 *
 * The hooks keep no setting: `npm run publish` reads the project's `.env` when a commit runs it, so a
 * commit made from any shell publishes the same way. With `--rollout` they deploy a new image to the
 * compose stack instead (deploy/rollout.sh). A hook of another tool is left alone unless `--force` is given.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { envFileOf, PROJECT_ROOT, readEntryConfig } from '../lib/entry-config.ts';
import { HOOK_MARKER, HOOK_NAMES, renderHookScript, type HookSettings } from './hook-script.ts';
import { joinList, plural } from '../../core/text/text-rules.ts';


export type InstallResult = { ok: true; hooksDir: string; installed: string[]; settings: HookSettings } | { ok: false; message: string };

export async function installHooks(options: { contentDir: string; force: boolean; target?: HookSettings['target'] }): Promise<InstallResult> {
  const contentDir = path.resolve(options.contentDir);
  const git = async (...args: string[]) => (await promisify(execFile)('git', ['-C', contentDir, ...args])).stdout.trim();
  let top: string;
  let hooksDir: string;
  try {
    top = await git('rev-parse', '--show-toplevel');
    // --git-path answers relative to the directory git runs in.
    hooksDir = path.resolve(contentDir, await git('rev-parse', '--git-path', 'hooks'));
  } catch (error) {
    return { ok: false, message: `${contentDir} is not inside a git repository (${(error as Error).message.trim().split('\n').at(-1)}); run git init there first` };
  }
  const fromTop = (p: string) => path.relative(top, p) || '.';
  const settings: HookSettings = { contentFromTop: fromTop(contentDir), projectFromTop: fromTop(PROJECT_ROOT), target: options.target ?? 'publish' };

  const scripts = HOOK_NAMES.map((hook) => ({ hook, file: path.join(hooksDir, hook), text: renderHookScript(hook, settings) }));
  const foreign: string[] = [];
  for (const { file } of scripts) {
    const existing = await readFile(file, 'utf8').catch(() => undefined);
    if (existing !== undefined && !existing.includes(HOOK_MARKER)) foreign.push(file);
  }
  if (foreign.length > 0 && !options.force) {
    return { ok: false, message: `${joinList(foreign)} already ${plural(foreign.length, 'exists and is', { many: 'exist and are', word: true })} not ours; add the publish step to it by hand, or pass --force to replace ${plural(foreign.length, 'it', { many: 'them', word: true })}` };
  }
  for (const { file, text } of scripts) await replaceFile(file, text, { mode: 0o755 });
  return { ok: true, hooksDir, installed: scripts.map((s) => s.hook), settings };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { force: { type: 'boolean', default: false }, rollout: { type: 'boolean', default: false } } });
  const target = values.rollout ? 'rollout' : 'publish';
  const result = await installHooks({ contentDir: readEntryConfig().config.contentDir, force: values.force ?? false, target });
  if (!result.ok) {
    console.error(`Hooks not installed: ${result.message}`);
    process.exit(1);
  }
  const { settings } = result;
  console.log(`Installed ${joinList(result.installed)} in ${result.hooksDir}.`);
  if (target === 'rollout') {
    console.log(`A commit, merge or pull that changes ${settings.contentFromTop}/ now runs sh deploy/rollout.sh in ${PROJECT_ROOT}: a new image, one sidecar at a time.`);
    console.log('It uses COMPOSE from the committing shell (docker compose by default) and deploy/.env.');
  } else {
    console.log(`A commit, merge or pull that changes ${settings.contentFromTop}/ now runs npm run publish in ${PROJECT_ROOT}.`);
    console.log(`Publishing reads its settings from ${envFileOf()} when it runs (the committing shell's environment wins); no running service there makes the hook say so and exit 1.`);
  }
}
