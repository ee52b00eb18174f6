/** Runs a command as a user would (a child process, environment only) and collects what it printed. */
import { spawn } from 'node:child_process';

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/** `uid` and `gid` run it as another account (the caller must be root). */
export function runScript(command: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number }): Promise<ScriptRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, uid: options.uid, gid: options.gid, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}
