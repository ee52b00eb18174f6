/**
 * `npm run restore -- <file>`: puts a copy made by `npm run backup` back as the hub's state, into a
 * DATA_DIR that holds none (issue 19 item 6). The copy is checked first (it opens, passes
 * `PRAGMA integrity_check`, has the hub's tables); an existing `websub.sqlite` is never overwritten:
 * stop the service and move it away first. A service running on the DATA_DIR holds the store's lock
 * (sidecar/websub/store/sqlite/file.ts), even when its file was moved away under it: restore then refuses, and
 * holds that lock itself until the file is in place, so no service starts half-way through. The file is
 * copied beside its place and renamed into it, so a failed restore leaves nothing half-written. With
 * `DATABASE_URL` this prints the `pg_restore` command.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { lockStoreFile, SQLITE_FILE_NAME, StoreLockedError } from '../sidecar/websub/index.ts';
import { describeHubBackup, readHubFileCommand } from './lib/hub-backup.ts';

const { config, file: source } = readHubFileCommand('restore', 'Usage: npm run restore -- <file>   (a copy made by npm run backup, restored into an empty DATA_DIR)');
if (!existsSync(source)) {
  console.error(`No backup at ${path.resolve(source)}.`);
  process.exit(1);
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
try {
  mkdirSync(config.dataDir, { recursive: true });
  copyFileSync(source, partial);
  renameSync(partial, target);
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  lock?.release();
}
console.log(`Restored ${summary.text} into ${path.resolve(target)}. Start the service to use them.`);

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
