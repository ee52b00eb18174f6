/**
 * `npm run backup -- <file>`: a consistent copy of the WebSub hub's state (subscriptions, pending
 * deliveries, the last notified content of each topic) while the service runs (issue 19 item 6).
 *
 * SQLite (the default, `DATA_DIR/websub.sqlite`): `VACUUM INTO` copies the database as one read
 * transaction, so writes made meanwhile (the WAL included) are either wholly in the copy or not at all,
 * and the service never waits. The copy is written beside the target and renamed into place, checked
 * (`PRAGMA integrity_check`), and its counts printed. With `DATABASE_URL`, the hub's state is in
 * PostgreSQL: the file then holds the review log's part alone, and this prints the `pg_dump` command for
 * the hub's schema (pg_dump is the tool for that). Restore with `npm run restore -- <file>` (scripts/restore.ts).
 *
 * The copy also holds the review log's keys and its last published log (scripts/lib/log-backup.ts): the
 * key is the one thing no build can make again, so the file is written with mode 0600 and the command
 * warns, loudly, that it holds a private key.
 */
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SQLITE_FILE_NAME } from '../sidecar/websub/index.ts';
import { describeHubBackup, postgresAdvice, readHubFileCommand } from './lib/hub-backup.ts';
import { addLogFiles } from './lib/log-backup.ts';
import { plural } from '../core/text/text-rules.ts';

const { config, file: target } = readHubFileCommand('Usage: npm run backup -- <file>   (writes a copy of the hub state and the review log in DATA_DIR to <file>)');
const source = path.join(config.dataDir, SQLITE_FILE_NAME);
if (!config.databaseUrl && !existsSync(source)) {
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
  if (config.databaseUrl) {
    // The hub's state is PostgreSQL's to copy; the file holds the log's part alone.
    new DatabaseSync(partial).close();
  } else {
    const db = new DatabaseSync(source, { readOnly: true });
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
  }
  // The copy holds the log's private key: only its owner may read it, from the moment it has one.
  chmodSync(partial, 0o600);
  const copy = new DatabaseSync(partial);
  let log: { keys: number; logFiles: number };
  try {
    log = await addLogFiles(copy, { dataDir: config.dataDir, distDir: config.distDir });
  } finally {
    copy.close();
  }
  const summary = config.databaseUrl ? undefined : describeHubBackup(partial);
  if (summary && !summary.ok) throw new Error(summary.problem);
  renameSync(partial, target);
  const logText = `${plural(log.keys, 'review log key', { format: String })} and ${log.logFiles > 0 ? `the last published log (${log.logFiles} files)` : 'no published log'}`;
  const size = `${Math.ceil(statSync(target).size / 1024)} KiB`;
  if (summary) console.log(`Backed up ${summary.text} to ${path.resolve(target)} (${size}), with ${logText}.`);
  else console.log(`Backed up ${logText} to ${path.resolve(target)} (${size}).\n${postgresAdvice('backup', target)}`);
  if (log.keys > 0) {
    console.warn(
      `WARNING: ${path.resolve(target)} holds the review log's PRIVATE signing key (mode 0600). Anyone with this file can sign a log for your address: keep it where only you can read it (an encrypted disk or password manager), and never commit or upload it. Without it (or LOG_SIGNING_KEY) no later build can continue the log.`,
    );
  }
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
