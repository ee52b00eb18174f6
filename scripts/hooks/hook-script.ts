/**
 * The git hooks that publish on commit, as shell text. Pure: install.ts finds the paths and writes
 * the files.
 *
 * Git runs a hook from the top of the work tree. `post-commit` looks at what the new commit changed
 * (`git diff-tree --root HEAD`, so the first commit counts too), `post-merge` at what the merge or
 * pull brought in (`ORIG_HEAD..HEAD`). Only a change under the content folder publishes. A hook's exit
 * status cannot undo a commit; a publish that failed, or that reached no running service (`npm run
 * publish -- --require-service`: a deployment in containers gets nothing from the host's publish), is
 * reported and the hook exits 1, so whatever runs git can tell; one published and served whose hub could
 * not record it yet (publish's exit 4: its store away) says so and exits 4. The hook freezes no setting: `npm run
 * publish` reads the project's `.env` (and the committing shell's environment, which wins) when it runs,
 * so a changed PUBLIC_URL or PORT needs no re-install.
 *
 * `rollout` hooks deploy to the compose stack instead (deploy/rollout.sh: a new image, one sidecar at a
 * time; COMPOSE from the committing shell, `docker compose` by default).
 */
export type HookName = 'post-commit' | 'post-merge';

export const HOOK_NAMES: readonly HookName[] = ['post-commit', 'post-merge'];

/** The first line after the shebang: how install.ts recognises its own hooks (and leaves others alone). */
export const HOOK_MARKER = '# reviews-service: publish on commit';

export type HookSettings = {
  /** The content folder, relative to the repository's top (`content`). */
  contentFromTop: string;
  /** The project (where package.json is), relative to the repository's top (`.`, or `../service`). */
  projectFromTop: string;
  /** `publish`: into the service running on this machine; `rollout`: a new image into the compose stack. */
  target: 'publish' | 'rollout';
};

export function renderHookScript(hook: HookName, settings: HookSettings): string {
  const changed =
    hook === 'post-commit'
      ? 'changed=$(git diff-tree -r --name-only --no-commit-id --root HEAD -- "$content")'
      : 'changed=$(git diff --name-only ORIG_HEAD HEAD -- "$content" 2>/dev/null)';
  return [
    '#!/bin/sh',
    HOOK_MARKER,
    `# Installed by \`npm run hooks:install\`; run it again after moving the project or changing CONTENT_DIR.`,
    `# When the ${hook === 'post-commit' ? 'commit' : 'merge or pull'} touched the content folder, runs ${settings.target === 'rollout' ? '`sh deploy/rollout.sh`' : '`npm run publish`'} and prints what it did; exits 1 when that failed, 4 when it is served but its hub could not record it yet.`,
    `content=${quote(settings.contentFromTop)}`,
    `project=${quote(settings.projectFromTop)}`,
    changed,
    '[ -n "$changed" ] || exit 0',
    'top=$(pwd)',
    'CONTENT_DIR="$top/$content"; export CONTENT_DIR',
    ...(settings.target === 'rollout'
      ? [
          `echo "reviews: the ${hook === 'post-commit' ? 'commit' : 'merge'} changed $content/; deploying to the compose stack (deploy/rollout.sh)"`,
          'cd "$top/$project" || exit 1',
          'if ! sh deploy/rollout.sh; then',
          '  echo "reviews: deploy/rollout.sh failed (above): the stack still serves the previous image on the sidecars not yet replaced. The commit stands." >&2',
          '  exit 1',
          'fi',
        ]
      : [
          `echo "reviews: the ${hook === 'post-commit' ? 'commit' : 'merge'} changed $content/; publishing (npm run publish)"`,
          'cd "$top/$project" || exit 1',
          'npm run --silent publish -- --require-service',
          'status=$?',
          // 4: published and served, but the hub could not record the change in its store yet (publish.ts).
          'if [ "$status" -eq 4 ]; then',
          '  echo "reviews: the commit is published and served; its subscribers are notified once the hub\'s store answers again (above). The commit stands." >&2',
          '  exit 4',
          'fi',
          'if [ "$status" -ne 0 ]; then',
          '  echo "reviews: the commit was not published to a running service (above). The commit stands; fix the cause, then commit again or run npm run publish." >&2',
          '  exit 1',
          'fi',
        ]),
    'exit 0',
    '',
  ].join('\n');
}

/** POSIX shell single quotes: nothing inside is expanded. */
function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
