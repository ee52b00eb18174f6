/**
 * git as the tests run it: real repositories, a fixed author, and none of this machine's own git
 * settings. `SERVICE_VARIABLES` are left out of the environment, as in an owner's shell, so a publish
 * that a hook runs reads them from its settings file (ENV_FILE).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const SERVICE_VARIABLES = ['CONTENT_DIR', 'DIST_DIR', 'PUBLIC_URL', 'HOST', 'PORT'];

/** The environment of someone's shell that commits: `extra` (ENV_FILE, say) added. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_VARIABLES.includes(name))),
    GIT_AUTHOR_NAME: 'Owner',
    GIT_AUTHOR_EMAIL: 'owner@example.com',
    GIT_COMMITTER_NAME: 'Owner',
    GIT_COMMITTER_EMAIL: 'owner@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...extra,
  };
}

/** Runs git in `cwd`; what it printed, stdout then stderr (a hook's output is in either). */
export async function runGit(cwd: string, args: string[], extra: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  const { stdout, stderr } = await promisify(execFile)('git', args, { cwd, env: gitEnv(extra), maxBuffer: 1 << 24 });
  return { stdout, stderr };
}
