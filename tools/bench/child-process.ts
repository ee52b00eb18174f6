/** Talking to and stopping the child processes the benchmarks start (the service, nginx, bench servers). */
import type { ChildProcess } from 'node:child_process';

/** Sends `request` over the IPC channel and resolves with the child's first message of type `type`. */
export function askChild<M extends { type: string }, T extends M['type']>(child: ChildProcess, request: { type: string }, type: T): Promise<Extract<M, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: M) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<M, { type: T }>);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}

/** Sends `signal` and resolves once the child has exited (at once when it already has). */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
