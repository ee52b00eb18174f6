/**
 * `npm run backup -- <file>`: a consistent copy of the WebSub hub's state (subscriptions, pending
 * deliveries, the last notified content of each topic) while the service runs (issue 19 item 6).
 *
 * SQLite (the default, `DATA_DIR/websub.sqlite`): `VACUUM INTO` copies the database as one read
 * transaction, so writes made meanwhile (the WAL included) are either wholly in the copy or not at all,
 * and the service never waits. The copy is written beside the target and renamed into place, checked
 * (`PRAGMA integrity_check`), and its counts printed. With `DATABASE_URL`, the state is in PostgreSQL:
 * this prints the `pg_dump` command for its schema instead (exit 2), since pg_dump is the tool for that.
 * Restore with `npm run restore -- <file>` (scripts/restore.ts).
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SQLITE_FILE_NAME } from '../sidecar/websub/index.ts';
import { describeHubBackup, readHubFileCommand } from './lib/hub-backup.ts';

const { config, file: target } = readHubFileCommand('backup', 'Usage: npm run backup -- <file>   (writes a copy of the hub state in DATA_DIR to <file>)');
const source = path.join(config.dataDir, SQLITE_FILE_NAME);
if (!existsSync(source)) {
  console.error(`No hub state at ${path.resolve(source)}: check DATA_DIR (nothing to back up before the first start).`);
  process.exit(1);
}
if (existsSync(target)) {
  console.error(`${path.resolve(target)} already exists: give a new file name, or delete it first.`);
  process.exit(1);
}

const partial = `${target}.partial`;
rmSync(partial, { force: true });
try {
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(partial);
  } finally {
    db.close();
  }
  const summary = describeHubBackup(partial);
  if (!summary.ok) throw new Error(summary.problem);
  renameSync(partial, target);
  console.log(`Backed up ${summary.text} to ${path.resolve(target)} (${Math.ceil(statSync(target).size / 1024)} KiB).`);
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
