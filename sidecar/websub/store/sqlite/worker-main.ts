/**
 * The thread that runs the SQLite store for threaded-store.ts: opens it, answers each call in the
 * order it came, and ends once the store is closed. Log lines go back to the serving thread's logger.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HubStore } from '../hub-store.ts';
import type { Logger } from '../../../logger.ts';
import { createSqliteHubStore } from './store.ts';
import type { ThreadCall, ThreadError, ThreadReply } from './threaded-store.ts';

const port = parentPort!;
const post = (reply: ThreadReply) => port.postMessage(reply);
const logAt = (level: keyof Logger) => (event: string, fields?: Record<string, unknown>) => post({ kind: 'log', level, event, fields });
const log = { debug: logAt('debug'), info: logAt('info'), warn: logAt('warn'), error: logAt('error') } as Logger;

let store: HubStore;
try {
  store = createSqliteHubStore({ dataDir: (workerData as { dataDir: string }).dataDir, log });
  post({ kind: 'open' });
} catch (error) {
  post({ kind: 'failed', error: errorOf(error) });
  process.exit(0);
}

port.on('message', async ({ id, method, args }: ThreadCall) => {
  try {
    // Each method runs synchronously up to its answer, so calls are applied in the order they came.
    const value = await (store[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    post({ kind: 'answer', id, ok: true, value });
  } catch (error) {
    post({ kind: 'answer', id, ok: false, error: errorOf(error) });
  }
  if (method === 'close') port.close();
});

function errorOf(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  return { name: error.name, message: error.message, ...(code === undefined ? {} : { code }), ...(errcode === undefined ? {} : { errcode }) };
}
