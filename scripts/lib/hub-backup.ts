/** What `npm run backup` and `npm run restore` share: their prologue, the check of a copy, the PostgreSQL advice. */
import { DatabaseSync } from 'node:sqlite';
import type { Config } from '../../core/config.ts';
import { plural } from '../../core/text/text-rules.ts';
import { readEntryConfig } from './entry-config.ts';

/**
 * The first steps of `npm run backup` and `npm run restore`: the configuration and the file named on the
 * command line (none: the usage line, exit 1).
 */
export function readHubFileCommand(usage: string): { config: Config; file: string } {
  const { config } = readEntryConfig();
  const file = process.argv[2];
  if (!file) {
    console.error(usage);
    process.exit(1);
  }
  return { config, file };
}

/** Opens a copy read-only, checks it, and counts what it holds: `3 subscriptions, 1 pending delivery, 2 topics`. */
export function describeHubBackup(file: string): { ok: true; subscriptions: number; text: string } | { ok: false; problem: string } {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    return { ok: false, problem: `${file} cannot be opened as SQLite (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    const check = db.prepare('PRAGMA integrity_check').all().map((row) => String(Object.values(row)[0]));
    if (check.join() !== 'ok') return { ok: false, problem: `${file} is damaged (${check.slice(0, 3).join('; ')})` };
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => String(row.name)));
    const missing = ['subscriptions', 'deliveries', 'topics'].filter((t) => !tables.has(t));
    if (missing.length > 0) return { ok: false, problem: `${file} is not a hub backup (no ${missing.join(', ')} table)` };
    const count = (table: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    const subscriptions = count('subscriptions');
    return {
      ok: true,
      subscriptions,
      text: `${plural(subscriptions, 'subscription', { format: String })}, ${plural(count('deliveries'), 'pending delivery', { many: 'pending deliveries', format: String })}, ${plural(count('topics'), 'topic', { format: String })}`,
    };
  } catch (error) {
    return { ok: false, problem: `${file} cannot be read (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    db.close();
  }
}

/**
 * With DATABASE_URL the hub's state is in PostgreSQL, schema `websub`: pg_dump and pg_restore are the tools,
 * into a file of their own beside the one that holds the review log (`<file>.websub`).
 */
export function postgresAdvice(action: 'backup' | 'restore', file: string): string {
  return action === 'backup'
    ? `The hub's state is in PostgreSQL (DATABASE_URL), not in this file. Back up its schema with: pg_dump --schema=websub --format=custom --file=${file}.websub "$DATABASE_URL"`
    : `The hub's state is in PostgreSQL (DATABASE_URL). Restore its schema, into a database without it, with: pg_restore --dbname="$DATABASE_URL" ${file}.websub`;
}
