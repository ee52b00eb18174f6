/**
 * The build's lock, one build at a time per DIST_DIR, decided by the kernel (issue 41 item 4): an SQLite
 * database held in an exclusive transaction (`<file>.held`), as the hub's store lock is
 * (sidecar/websub/store/sqlite/file.ts), is released when its process ends, however it ends, and every
 * process that opens the file sees it held, whatever pid namespace it runs in. A pid alone cannot say
 * that once builds live in a container's volume: a build killed there left a lock naming pid 6, the next
 * container's own build (pid 6 as well) took it for a live one, and no build ever ran on that volume
 * again. `<file>` holds the holder's pid, for the message.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { sqliteCodeOf } from '../../sidecar/websub/index.ts';

const SQLITE_BUSY = 5;

export type HeldLock = { ok: true; release: () => Promise<void> } | { ok: false; pid: number | undefined };

/**
 * Takes the lock's exclusive transaction, its journal in memory: the database is never written, and a
 * process that ends holding it leaves no journal file. Throws SQLITE_BUSY while another process holds it
 * (the pragma reads the database, so it is refused as well).
 */
function beginHeld(held: DatabaseSync): void {
  held.exec('PRAGMA journal_mode = MEMORY');
  held.exec('BEGIN EXCLUSIVE');
}

export async function takeHeldLock(file: string): Promise<HeldLock> {
  const held = new DatabaseSync(`${file}.held`, { timeout: 0 });
  try {
    beginHeld(held);
  } catch (error) {
    held.close();
    if (sqliteCodeOf(error) !== SQLITE_BUSY) throw error;
    const pid = Number(await readFile(file, 'utf8').catch(() => ''));
    return { ok: false, pid: Number.isInteger(pid) && pid > 0 ? pid : undefined };
  }
  // Whatever pid the file still names, that holder has ended: the kernel let go of its lock.
  await writeFile(file, String(process.pid));
  return {
    ok: true,
    release: async () => {
      await rm(file, { force: true });
      held.close();
    },
  };
}

/** Whether a live process holds `file`'s lock now (takeHeldLock), without taking it. */
export function isHeldLockHeld(file: string): boolean {
  const held = new DatabaseSync(`${file}.held`, { timeout: 0 });
  try {
    beginHeld(held);
    held.exec('ROLLBACK');
    return false;
  } catch (error) {
    if (sqliteCodeOf(error) !== SQLITE_BUSY) throw error;
    return true;
  } finally {
    held.close();
  }
}
