/**
 * `npm run restore -- <file>`: puts a copy made by `npm run backup` back as the hub's state, into a
 * DATA_DIR that holds none (issue 19 item 6). The copy is checked first (it opens, passes
 * `PRAGMA integrity_check`, has the hub's tables); an existing `websub.sqlite` is never overwritten:
 * stop the service and move it away first. A service running on the DATA_DIR holds the store's lock
 * (sidecar/websub/store/sqlite/file.ts), even when its file was moved away under it: restore then refuses, and
 * holds that lock itself until the file is in place, so no service starts half-way through. The file is
 * copied beside its place and renamed into it, so a failed restore leaves nothing half-written. The
 * review log's keys and last published log in the copy (scripts/lib/log-backup.ts) go back into DATA_DIR
 * (`log-keys/`, mode 0600, never over another key; `last-log/`), so the next build on an empty machine
 * continues the same log. With `DATABASE_URL` the hub's state is PostgreSQL's: only the log's part is
 * restored, and this prints the `pg_restore` command for the hub's schema.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { lockStoreFile, SQLITE_FILE_NAME, StoreLockedError } from '../sidecar/websub/index.ts';
import { describeHubBackup, postgresAdvice, readHubFileCommand } from './lib/hub-backup.ts';
import { restoreLogFiles } from './lib/log-backup.ts';
import { lastLogDirOf } from './lib/review-log.ts';
import { plural } from '../core/text/text-rules.ts';

const { config, file: source } = readHubFileCommand('Usage: npm run restore -- <file>   (a copy made by npm run backup, restored into an empty DATA_DIR)');
if (!existsSync(source)) {
  console.error(`No backup at ${path.resolve(source)}.`);
  process.exit(1);
}
if (config.databaseUrl) {
  const restored = restoreLogPart(source);
  console.log(`Restored ${restored} into ${path.resolve(config.dataDir)}.\n${postgresAdvice('restore', source)}`);
  process.exit(0);
}
const target = path.join(config.dataDir, SQLITE_FILE_NAME);
const lock = takeStoreLock(target);
const present = [target, `${target}-wal`].filter((f) => existsSync(f));
if (present.length > 0) {
  console.error(`DATA_DIR already holds hub state (${path.resolve(present[0]!)}): stop the service and move it away first; restore never overwrites it.`);
  process.exit(1);
}
const summary = describeHubBackup(source);
if (!summary.ok) {
  console.error(`Not restored: ${summary.problem}.`);
  process.exit(1);
}
const partial = `${target}.restoring`;
let logText = '';
try {
  mkdirSync(config.dataDir, { recursive: true });
  copyFileSync(source, partial);
  chmodSync(partial, 0o600);
  // The log's keys and last log go back into DATA_DIR; the store keeps only the hub's state.
  logText = restoreLogFrom(partial);
  renameSync(partial, target);
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  lock?.release();
}
console.log(`Restored ${summary.text} into ${path.resolve(target)}, and ${logText}. The next build continues the log; start the service to use them.`);

/** The store's lock, or exit 1 when a running service holds it; none to take when DATA_DIR does not exist yet. */
function takeStoreLock(file: string): { release: () => void } | undefined {
  if (!existsSync(path.dirname(file))) return undefined;
  try {
    return lockStoreFile(file);
  } catch (error) {
    if (!(error instanceof StoreLockedError)) throw error;
    console.error(
      `Not restored: a running service holds the hub's store in ${path.resolve(path.dirname(file))} (${path.basename(file)}.lock); stop it first, then restore. A file put under a running service would never be read by it.`,
    );
    process.exit(1);
  }
}

/** Puts the copy's review log keys and last log back into DATA_DIR (dropping them from `copy`); says what it put back. */
function restoreLogFrom(copy: string): string {
  const db = new DatabaseSync(copy);
  try {
    const restored = restoreLogFiles(db, config.dataDir);
    if (!restored.ok) throw new Error(restored.problem);
    return `${plural(restored.keys, 'review log key', { format: String })} and ${restored.logFiles > 0 ? `the last published log (${restored.logFiles} files, in ${path.resolve(lastLogDirOf(config.dataDir))})` : 'no published log'}`;
  } finally {
    db.close();
  }
}

/** With DATABASE_URL: the log's part of `file`, through a copy (the backup itself is left as it is). */
function restoreLogPart(file: string): string {
  const copy = path.join(config.dataDir, 'log-restore.partial');
  try {
    mkdirSync(config.dataDir, { recursive: true });
    copyFileSync(file, copy);
    chmodSync(copy, 0o600);
    return restoreLogFrom(copy);
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  } finally {
    rmSync(copy, { force: true });
  }
}
