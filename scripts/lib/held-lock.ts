/**
 * The build's lock (one build at a time per DIST_DIR), the service records' (running-service.ts) and the
 * content folder's import lock (scripts/import/import-fs.ts), decided by the kernel (issue 41 item 4;
 * core/held-lock-fs.ts): `<file>.held` is the lock, and `<file>` names its holder's pid, for the message.
 * A pid alone could not say whether the holder lives once builds run in a container's volume: a build
 * killed there left a lock naming pid 6, the next container's own build (pid 6 as well) took it for a live
 * one, and no build ever ran on that volume again.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { holdFileLock, isFileLockHeld } from '../../core/held-lock-fs.ts';

export type HeldLock = { ok: true; release: () => Promise<void> } | { ok: false; pid: number | undefined };

/** `tidy`: both files go at its release (core/held-lock-fs.ts), for a lock in a folder that is not the project's. */
export async function takeHeldLock(file: string, { tidy = false }: { tidy?: boolean } = {}): Promise<HeldLock> {
  const held = holdFileLock(`${file}.held`, { tidy });
  if (!held) {
    const pid = Number(await readFile(file, 'utf8').catch(() => ''));
    return { ok: false, pid: Number.isInteger(pid) && pid > 0 ? pid : undefined };
  }
  // Whatever pid the file still names, that holder has ended: the kernel let go of its lock.
  await writeFile(file, String(process.pid));
  return {
    ok: true,
    release: async () => {
      await rm(file, { force: true });
      held.release();
    },
  };
}

/** Whether a live process holds `file`'s lock now (takeHeldLock), without taking it. */
export function isHeldLockHeld(file: string): boolean {
  return isFileLockHeld(`${file}.held`);
}
