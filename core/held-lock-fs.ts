/**
 * A lock the kernel holds for its process: an SQLite database held in an exclusive transaction, its
 * journal in memory, so the file is never written and a process that ends holding it leaves no journal.
 * SQLite's locks are the kernel's advisory locks: released when the process ends, however it ends, and
 * seen held by every process that opens the file, whatever pid namespace it runs in. A pid alone cannot
 * say that once processes share a volume across containers.
 *
 * The one rule behind the build's lock and the service records (scripts/lib/held-lock.ts) and the hub's
 * store lock (sidecar/websub/store/sqlite/file.ts).
 */
import { DatabaseSync } from 'node:sqlite';

const SQLITE_BUSY = 5;

/** SQLite's primary result code of an error thrown by node:sqlite (`errcode` holds the extended one). */
export function sqliteCodeOf(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null && 'errcode' in error ? Number((error as { errcode: unknown }).errcode) : undefined;
  return code === undefined || Number.isNaN(code) ? undefined : code & 0xff;
}

/**
 * Takes `file`'s lock until `release()` or the end of this process; undefined while another process holds
 * it (the journal pragma reads the database, so it is refused as well). Other errors (a folder that is not
 * there or not writable) are thrown.
 */
export function holdFileLock(file: string): { release: () => void } | undefined {
  const held = new DatabaseSync(file, { timeout: 0 });
  try {
    held.exec('PRAGMA journal_mode = MEMORY');
    held.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    held.close();
    if (sqliteCodeOf(error) === SQLITE_BUSY) return undefined;
    throw error;
  }
  return { release: () => held.isOpen && held.close() };
}

/** Whether another process holds `file`'s lock now, without keeping it. */
export function isFileLockHeld(file: string): boolean {
  const held = holdFileLock(file);
  held?.release();
  return held === undefined;
}
