/**
 * A lock the kernel holds for its process: an SQLite database held in an exclusive transaction, its
 * journal in memory, so the file is never written and a process that ends holding it leaves no journal.
 * SQLite's locks are the kernel's advisory locks: released when the process ends, however it ends, and
 * seen held by every process that opens the file, whatever pid namespace it runs in. A pid alone cannot
 * say that once processes share a volume across containers.
 *
 * The one rule behind the build's lock, the service records and the import lock (scripts/lib/held-lock.ts)
 * and the hub's store lock (sidecar/websub/store/sqlite/file.ts).
 *
 * A lock in a folder that is not ours (the owner's content folder) is `tidy`: its release removes the file,
 * before it lets go. A taker then checks, once it holds the lock, that the path still names the file it
 * locked: a file removed meanwhile was its last holder's, and the taker tries again on the new one. Every
 * taker of a tidy lock must take it so; the others never remove their file.
 */
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { SQLITE_BUSY, sqliteCodeOf } from './sqlite-errors.ts';

/**
 * Takes `file`'s lock until `release()` or the end of this process; undefined while another process holds
 * it (the journal pragma reads the database, so it is refused as well). Other errors (a folder that is not
 * there or not writable) are thrown.
 */
export function holdFileLock(file: string, { tidy = false }: { tidy?: boolean } = {}): { release: () => void } | undefined {
  for (;;) {
    // The file exists before it is opened, so what the path named then is what the database opened.
    if (tidy) closeSync(openSync(file, 'a'));
    const before = tidy ? inodeOf(file) : undefined;
    const held = new DatabaseSync(file, { timeout: 0 });
    try {
      held.exec('PRAGMA journal_mode = MEMORY');
      held.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      held.close();
      if (sqliteCodeOf(error) === SQLITE_BUSY) return undefined;
      throw error;
    }
    if (tidy && (before === undefined || inodeOf(file) !== before)) {
      held.close(); // its last holder removed it as it let go: the lock is now the file at that path
      continue;
    }
    return {
      release: () => {
        if (!held.isOpen) return;
        if (tidy) rmSync(file, { force: true });
        held.close();
      },
    };
  }
}

/** Whether another process holds `file`'s lock now, without keeping it. */
export function isFileLockHeld(file: string): boolean {
  const held = holdFileLock(file);
  held?.release();
  return held === undefined;
}

function inodeOf(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat && `${stat.dev}:${stat.ino}`;
}
