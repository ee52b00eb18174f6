/**
 * A worker thread that gives way to the serving thread. Loading a build is a few seconds of CPU on a
 * thread of its own; on a machine with two cores it shared them with the serving thread and the
 * clients, and each slice the scheduler gave it was a wait for a request. On Linux every thread has a
 * nice value of its own (setpriority(2) on its thread id, which /proc/thread-self names), so the thread
 * lowers its own; raising it back would need privileges, lowering does not. Elsewhere nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';

/** Nice 10: a tenth of a normal thread's share of the CPU when both want it, all of it when idle. */
export const BACKGROUND_NICE = 10;

export function lowerThisThreadPriority(nice = BACKGROUND_NICE): boolean {
  try {
    const tid = Number(path.basename(readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
