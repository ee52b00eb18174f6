/**
 * The SQLite store's `check()` (readiness, every `storeCheckIntervalMs`): is the file at its path still
 * the one open, and its WAL too; does the file still start with SQLite's header; does a small write still
 * fit (after a full disk). Now and then (`integrityCheckIntervalMs`), and on every check after an error
 * that said the file is corrupt, `PRAGMA quick_check` reads every page from disk: the store stays failing
 * until one passes. A path that no longer names the open file makes the store lost for good: a copy of
 * everything it held is written beside it, and every later operation fails.
 */
import type { StoreCheck } from '../hub-store.ts';
import type { SqliteAccess } from './access.ts';
import { hasSqliteHeader, rescueCopy, sameFile, type FileIdentity } from './file.ts';
import { describeError } from '../connector.ts';
import type { Row } from '../rows.ts';

/** Bytes the readiness probe writes (and deletes in the same transaction): about the size of a subscription. */
const PROBE_BYTES = 2 * 1024;

export type SqliteCheckState = {
  file: string;
  opened: FileIdentity;
  /** The WAL opened with the file; undefined when there was none to compare. */
  wal: FileIdentity | undefined;
  integrityCheckIntervalMs: number;
  now: () => number;
  /** Set once the path no longer names the open file. */
  lost?: string;
  /** Set by an error that said the file is corrupt; cleared by a quick_check that passes. */
  suspect?: boolean;
  lastIntegrityCheck?: number;
};

export function checkSqliteStore(access: SqliteAccess, state: SqliteCheckState): StoreCheck {
  const { file } = state;
  if (state.lost) return { ok: false, problem: state.lost };
  const identity = sameFile(file, state.opened);
  const wal = state.wal && sameFile(`${file}-wal`, state.wal);
  if (identity !== 'same' || (wal !== undefined && wal !== 'same')) {
    const what = identity !== 'same' ? `${file} was ${identity}` : `its write-ahead log ${file}-wal was ${wal}`;
    // Nothing the hub acknowledged is lost: the open file still holds it, and a copy goes where it can be found.
    state.lost = `${what} while the hub had it open; everything it held is copied to ${rescueCopy(access.db, file)}; restart the service to open the store again`;
    return { ok: false, problem: state.lost };
  }
  if (!hasSqliteHeader(file, state.opened)) return { ok: false, problem: `${file} is corrupt (no SQLite header)` };
  try {
    if (state.suspect || state.lastIntegrityCheck === undefined || state.now() - state.lastIntegrityCheck >= state.integrityCheckIntervalMs) {
      const found = quickCheck(access);
      if (found) {
        state.suspect = true;
        return { ok: false, problem: `${file} is corrupt (quick_check: ${found})` };
      }
      state.suspect = false;
      state.lastIntegrityCheck = state.now();
    }
    access.transaction(() => {
      access.run('INSERT INTO health_probe (bytes) VALUES (zeroblob(?))', PROBE_BYTES);
      access.run('DELETE FROM health_probe');
    });
  } catch (err) {
    return { ok: false, problem: `${file} cannot be used (${describeError(err)})` };
  }
  return { ok: true };
}

/** Undefined when every page reads back sound; else the first findings. The page cache is emptied first, so pages come from disk. */
function quickCheck(access: SqliteAccess): string | undefined {
  access.db.exec('PRAGMA shrink_memory');
  const rows = access.all('PRAGMA quick_check(5)').map((r: Row) => String(Object.values(r)[0]));
  return rows.length === 1 && rows[0] === 'ok' ? undefined : rows.join('; ');
}
