/**
 * The SQLite store's file as the operating system sees it (issue 31 item 1). SQLite's own locks are POSIX
 * advisory locks, which belong to the process and the file: closing *any* descriptor of the database in
 * the process drops all of them. An operator's `sqlite3 websub.sqlite` would then checkpoint and delete
 * the WAL the service is still writing into, and every later write would go to a deleted file. So:
 *
 * - the database file is never opened here except once per process, for its header, and that descriptor
 *   is never closed (`readHeader`);
 * - the file and its WAL are compared with what was opened (device and inode), so a WAL deleted anyway is
 *   found by the next check;
 * - a lock beside the file (`websub.sqlite.lock`, held for the store's life by the kernel's rule,
 *   core/held-lock-fs.ts, released when the process dies) keeps a second process out.
 */
import { openSync, readSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { holdFileLock } from '../../../../core/held-lock-fs.ts';
import { describeError, StoreLockedError } from '../connector.ts';

export { StoreLockedError };

export type FileIdentity = { dev: number; ino: number };

export function identityOf(file: string): FileIdentity | undefined {
  try {
    const { dev, ino } = statSync(file);
    return { dev, ino };
  } catch {
    return undefined;
  }
}

/** Whether the path still names the file opened (same device and inode), or what became of it. */
export function sameFile(file: string, opened: FileIdentity): 'same' | 'deleted' | 'replaced' {
  const now = identityOf(file);
  if (now === undefined) return 'deleted';
  return now.dev === opened.dev && now.ino === opened.ino ? 'same' : 'replaced';
}

/**
 * Takes the store's lock, or throws StoreLockedError naming the folder. Released by `release()` (the
 * store's close) or by the process's death, never left behind by a kill.
 */
export function lockStoreFile(file: string): { release: () => void } {
  const held = holdFileLock(`${file}.lock`);
  if (held) return held;
  throw new StoreLockedError(
    `The WebSub store ${file} is in use by another running process (it holds ${file}.lock): two services must not share one DATA_DIR. Stop the other one, or give this one its own DATA_DIR (instances that share subscriptions use PostgreSQL through DATABASE_URL).`,
  );
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');
/** One descriptor per database file (by inode) for the life of the process: closing it would drop SQLite's locks. */
const headerDescriptors = new Map<string, number>();

/** Whether the file on disk still starts with SQLite's header (pages SQLite holds in memory or in its WAL hide an overwritten file). */
export function hasSqliteHeader(file: string, identity: FileIdentity): boolean {
  const key = `${identity.dev}:${identity.ino}`;
  try {
    let fd = headerDescriptors.get(key);
    if (fd === undefined) headerDescriptors.set(key, (fd = openSync(file, 'r')));
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  }
}

/** Writes a consistent copy of the open database beside its path; returns where (or why not). */
export function rescueCopy(db: DatabaseSync, file: string): string {
  const target = `${file}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    db.prepare('VACUUM INTO ?').run(target);
    return target;
  } catch (err) {
    return `nowhere: the copy to ${target} failed (${describeError(err)})`;
  }
}
