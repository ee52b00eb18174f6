/** Starts the real sidecar (scripts/serve.ts) in a child process on a free port, for load benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function startSidecarProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
    cwd: ROOT,
    // LOG_LEVEL info: the `listening` line tells where it listens.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const read = (chunk: Buffer) => {
      buffer += chunk;
      const match = /"event":"listening","url":"([^"]+)"/.exec(buffer);
      if (!match) return;
      resolve(match[1]!);
      // From here on the log (an access line per request) is drained unread: kept and searched, it made
      // this process, which is also the load generator, the bottleneck (3,000 304s a second for 66,000).
      child.stdout!.off('data', read);
      child.stdout!.resume();
    };
    child.stdout!.on('data', read);
    child.once('exit', (code) => reject(new Error(`sidecar exited with ${code}`)));
  });
  return {
    url,
    child,
    stop: () => stopChild(child),
  };
}
