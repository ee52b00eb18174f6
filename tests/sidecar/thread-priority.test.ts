/** A worker thread lowers its own CPU priority and no other thread's (sidecar/thread-priority.ts). */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from '../../sidecar/thread-priority.ts';

/** The nice value of the calling thread, from /proc (field 19 of stat, after the command's parentheses). */
const NICE_OF_THIS_THREAD = `Number(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16])`;
const niceOfProcess = () => Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);

function inWorker(): Promise<{ lowered: boolean; before: number; after: number }> {
  const module = new URL('../../sidecar/thread-priority.ts', import.meta.url).href;
  const code = `
    const { parentPort } = require('node:worker_threads');
    const nice = () => ${NICE_OF_THIS_THREAD};
    const before = nice();
    import(${JSON.stringify(module)}).then(({ lowerThisThreadPriority }) => {
      const lowered = lowerThisThreadPriority();
      parentPort.postMessage({ lowered, before, after: nice() });
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('lowerThisThreadPriority', () => {
  it.runIf(process.platform === 'linux')('sets the calling thread to nice 10 and leaves the serving thread as it was', async () => {
    const serving = niceOfProcess();
    const result = await inWorker();
    expect(result).toEqual({ lowered: true, before: serving, after: Math.max(serving, BACKGROUND_NICE) });
    expect(niceOfProcess()).toBe(serving);
  });
});
