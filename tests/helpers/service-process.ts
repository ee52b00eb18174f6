/**
 * The real service process, as `npm start` runs it after its build (`node sidecar/main.ts`, configured
 * by environment only): for tests that need Node's own module loader (each build's page code imported
 * into one long-lived process), NODE_EXTRA_CA_CERTS read at start, or a process they can kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export type ServiceProcess = { child: ChildProcess; url: string; output: () => string };

/** Starts the service with `env` over the current environment; resolves once it logged where it listens. */
export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['sidecar/main.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /"event":"listening","url":"([^"]+)"/.exec(output);
      if (match) resolve({ child, url: match[1]!, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
  });
}

export function stopServiceProcess(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    service.child.once('exit', () => resolve());
    service.child.kill(signal);
  });
}
