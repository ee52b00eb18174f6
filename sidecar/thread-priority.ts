/**
 * Work that gives way to the serving thread. Loading a build is a few seconds of CPU on a thread of its
 * own, and a build (its Astro process, its analysis threads) far more; on a machine with two cores they
 * shared them with the serving thread and the clients, and each slice the scheduler gave them was a wait
 * for a request. On Linux every thread has a nice value of its own (setpriority(2) on its thread id,
 * which /proc/thread-self names), and a thread or process starts with the nice value of the thread that
 * made it; raising it back would need privileges, lowering does not. Elsewhere, setpriority(2) on a
 * process covers all its threads.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';

/** Nice 10: a tenth of a normal thread's share of the CPU when both want it, all of it when idle. */
export const BACKGROUND_NICE = 10;

export function lowerThisThreadPriority(nice = BACKGROUND_NICE): boolean {
  try {
    const tid = Number(path.basename(readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    return lowerTask(tid, nice);
  } catch {
    return false;
  }
}

/**
 * Lowers every thread of this process (V8's helper threads and libuv's pool, started before any of our
 * code ran, included), so the threads and processes it starts afterwards begin lowered too. For a
 * process that does nothing but background work: the build's entry points and its Astro process, never
 * the service's. The calling thread goes last, so no thread it starts meanwhile misses out.
 */
export function lowerProcessPriority(nice = BACKGROUND_NICE): boolean {
  if (process.platform !== 'linux') {
    try {
      if (getPriority(process.pid) < nice) setPriority(process.pid, nice);
      return true;
    } catch {
      return false;
    }
  }
  try {
    const self = Number(path.basename(readlinkSync('/proc/thread-self')));
    const others = readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== self);
    // A thread may end between the listing and its setpriority(2): that one needs nothing more.
    for (const tid of others) lowerTask(tid, nice);
    return lowerTask(self, nice);
  } catch {
    return false;
  }
}

function lowerTask(tid: number, nice: number): boolean {
  try {
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
