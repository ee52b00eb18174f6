/**
 * The threads of a process and its descendants with their nice values, read from /proc as `top` reads
 * them (Linux), and a sampler that reads them every millisecond or two on a thread of its own, so a busy
 * main thread cannot hide what ran meanwhile.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export type Task = { pid: number; tid: number; command: string; thread: string; nice: number };

/** The nice value of a task, from field 19 of its stat (counted after the command's parentheses). */
export function niceOf(statFile: string): number {
  return Number(readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')[16]);
}

/** Every thread of `pid` and of its descendants, now. A task that ends while being read is left out. */
export function readTree(pid: number): Task[] {
  const tasks: Task[] = [];
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
      try {
        const dir = `/proc/${pid}/task/${tid}`;
        tasks.push({ pid, tid, command, thread: readFileSync(`${dir}/comm`, 'utf8').trim(), nice: niceOf(`${dir}/stat`) });
        for (const child of readFileSync(`${dir}/children`, 'utf8').split(' ').filter(Boolean)) tasks.push(...readTree(Number(child)));
      } catch {
        // ended meanwhile
      }
    }
  } catch {
    // ended meanwhile
  }
  return tasks;
}

/** Samples the tree of `pid` until stopped; the sampler's own thread is left out. */
export function sampleTree(pid: number): { stop(): Promise<Task[][]> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { pid } });
  const samples = new Promise<Task[][]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const result = await samples;
      await worker.terminate();
      return result;
    },
  };
}

/** Each task's nice values over the samples, by thread id, in order. */
export function niceHistory(samples: Task[][], which: (task: Task) => boolean): Map<number, number[]> {
  const history = new Map<number, number[]>();
  for (const sample of samples) for (const task of sample.filter(which)) history.set(task.tid, [...(history.get(task.tid) ?? []), task.nice]);
  return history;
}

/** A nice history for a failure message, run-length: `0×12 10×340`. */
export function describeNices(nices: number[]): string {
  const runs: [number, number][] = [];
  for (const nice of nices) {
    const last = runs.at(-1);
    if (last?.[0] === nice) last[1]++;
    else runs.push([nice, 1]);
  }
  return runs.map(([nice, count]) => `${nice}×${count}`).join(' ');
}

if (!isMainThread && (workerData as { pid?: number } | null)?.pid !== undefined) {
  const { pid } = workerData as { pid: number };
  const self = Number(path.basename(readlinkSync('/proc/thread-self')));
  const samples: Task[][] = [];
  let running = true;
  parentPort!.once('message', () => (running = false));
  while (running) {
    samples.push(readTree(pid).filter((t) => t.tid !== self));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  parentPort!.postMessage(samples);
}
