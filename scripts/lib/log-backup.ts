/**
 * The review log's part of a backup (issue 41 item 5): the log's keys (`DATA_DIR/log-keys/`, the one
 * thing that cannot be made again) and the last published log (the served build's `log/`), kept in the
 * backup file itself, in a table of its own (`log_files`). A restore writes them back (the keys with mode
 * 0600, the log into `DATA_DIR/last-log/`, where the next build finds it: scripts/lib/review-log.ts) and
 * drops the table, so the hub's store it puts in place holds only the hub's state.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import { LOG_DIR, lastLogDirOf } from './review-log.ts';

export const LOG_FILES_TABLE = 'log_files';
const KEYS = 'log-keys';
const LAST_LOG = 'last-log';

/** Every file under `dir`, as paths relative to it. */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, rel) : entry.isFile() ? [rel] : [];
  });
}

/** Adds the keys and the last published log to the backup copy `db`; returns how many of each. */
export async function addLogFiles(db: DatabaseSync, options: { dataDir: string; distDir: string }): Promise<{ keys: number; logFiles: number }> {
  db.exec(`CREATE TABLE ${LOG_FILES_TABLE} (path TEXT PRIMARY KEY, data BLOB NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${LOG_FILES_TABLE} (path, data) VALUES (?, ?)`);
  const keysDir = path.join(options.dataDir, KEYS);
  const keys = existsSync(keysDir) ? listFiles(keysDir) : [];
  for (const rel of keys) insert.run(`${KEYS}/${rel}`, readFileSync(path.join(keysDir, rel)));
  // The served build's log; on a machine whose build is gone, the log a restore put back.
  const served = (await readManifest(options.distDir)) ? path.join(realpathSync(options.distDir), LOG_DIR) : lastLogDirOf(options.dataDir);
  const logFiles = existsSync(path.join(served, 'checkpoint')) ? listFiles(served) : [];
  for (const rel of logFiles) insert.run(`${LAST_LOG}/${rel}`, readFileSync(path.join(served, rel)));
  return { keys: keys.length, logFiles: logFiles.length };
}

/**
 * Writes the backup's keys and last log into `dataDir`, then drops the table from `db` (the copy about to
 * become the hub's store). A key file already there with other bytes is never overwritten: that is a refusal.
 */
export function restoreLogFiles(db: DatabaseSync, dataDir: string): { ok: true; keys: number; logFiles: number } | { ok: false; problem: string } {
  const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`).get(LOG_FILES_TABLE);
  if (!table) return { ok: true, keys: 0, logFiles: 0 };
  const rows = db.prepare(`SELECT path, data FROM ${LOG_FILES_TABLE} ORDER BY path`).all() as { path: string; data: Uint8Array }[];
  for (const row of rows) {
    const parts = row.path.split('/');
    if (![KEYS, LAST_LOG].includes(parts[0]!) || parts.some((p) => p === '' || p === '.' || p === '..')) return { ok: false, problem: `the backup names a log file outside ${KEYS}/ and ${LAST_LOG}/ (${row.path})` };
    const file = path.join(dataDir, ...parts);
    if (parts[0] === KEYS && existsSync(file) && !readFileSync(file).equals(Buffer.from(row.data))) {
      return { ok: false, problem: `${file} already holds another key; move it away first (restore never overwrites a key)` };
    }
  }
  let keys = 0;
  let logFiles = 0;
  for (const row of rows) {
    const file = path.join(dataDir, ...row.path.split('/'));
    const isKey = row.path.startsWith(`${KEYS}/`);
    mkdirSync(path.dirname(file), { recursive: true, mode: isKey ? 0o700 : 0o755 });
    writeFileSync(file, row.data, { mode: isKey ? 0o600 : 0o644 });
    if (isKey) {
      chmodSync(file, 0o600);
      keys++;
    } else logFiles++;
  }
  db.exec(`DROP TABLE ${LOG_FILES_TABLE}`);
  return { ok: true, keys, logFiles };
}
