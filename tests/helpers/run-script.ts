/** Runs a command as a user would (a child process, environment only) and collects what it printed. */
import { spawn } from 'node:child_process';

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

export function runScript(command: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<ScriptRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}
