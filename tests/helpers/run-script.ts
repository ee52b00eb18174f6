/** Runs a command as a user would (a child process, environment only) and collects what it printed. */
import { spawn } from 'node:child_process';

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/**
 * `uid` and `gid` run it as another account (the caller must be root). `limitMs` kills it (SIGKILL) when it
 * runs longer, and says so on its stderr, so a command that hangs fails with what it printed.
 */
export function runScript(command: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number; limitMs?: number }): Promise<ScriptRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, uid: options.uid, gid: options.gid, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const limit =
    options.limitMs === undefined
      ? undefined
      : setTimeout(() => {
          stderr += `\n[killed: still running after ${options.limitMs} ms]`;
          child.kill('SIGKILL');
        }, options.limitMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    }),
  );
}
