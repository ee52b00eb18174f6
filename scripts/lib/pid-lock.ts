/**
 * A lock file that names the process holding it (its pid, the whole content), for the commands that
 * write a folder another command may be writing: the content folder's import and sync, a DIST_DIR's
 * build. The file is written under a name of its own and linked into place with `link(2)`, which fails
 * when the lock exists: so a lock file is never seen empty (a lock created empty and its pid written after
 * let a reader take `0` for a dead owner and remove a live lock). A lock whose process is gone (killed)
 * is taken over: renamed away first, so of two processes that both found it stale only one removes it.
 */
import { link, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';

export type PidLock = { ok: true; release: () => Promise<void> } | { ok: false; pid: number };

export async function takePidLock(file: string): Promise<PidLock> {
  const mine = `${file}.${process.pid}.new`;
  await writeFile(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(mine, file);
        return { ok: true, release: () => unlink(file).catch(() => undefined) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const pid = await readPid(file);
      if (pid !== undefined && isAlive(pid)) return { ok: false, pid };
      const stale = `${file}.${process.pid}.stale`;
      await rename(file, stale).catch(() => undefined);
      // Another process may have taken the lock between the read and the rename: give it back.
      const moved = await readPid(stale);
      if (moved !== undefined && moved !== pid && isAlive(moved)) {
        await link(stale, file).catch(() => undefined);
        await rm(stale, { force: true });
        return { ok: false, pid: moved };
      }
      await rm(stale, { force: true });
    }
    return { ok: false, pid: (await readPid(file)) ?? 0 };
  } finally {
    await rm(mine, { force: true });
  }
}

async function readPid(file: string): Promise<number | undefined> {
  const pid = Number(await readFile(file, 'utf8').catch(() => ''));
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process runs with this pid (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
