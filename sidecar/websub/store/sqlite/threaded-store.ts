/**
 * The SQLite store on a thread of its own (issue 32 item 2). `node:sqlite` is synchronous: recording a
 * changed `/reviews.json` at 10k reviews writes 9 MB into the WAL, 100–300 ms, and the minute's
 * `quick_check` reads every page; on the serving thread each of those stalled every request of a publish.
 * The store is store.ts, unchanged, run by worker-main.ts; this side forwards each HubStore
 * call as one message, in call order, and settles it with the answer.
 *
 * What crosses the thread: plain rows, and bodies as bytes (a Buffer comes back a Uint8Array and is
 * wrapped again, without a copy). An error keeps its name, message and SQLite codes, and the store's
 * lock refusal is a StoreLockedError again on this side, so callers see what they saw before.
 */
import { Worker } from 'node:worker_threads';
import type { HubStore } from '../hub-store.ts';
import type { Logger } from '../../../logger.ts';
import { StoreLockedError } from '../connector.ts';

export type ThreadError = { name: string; message: string; code?: unknown; errcode?: unknown };
export type ThreadReply =
  | { kind: 'open' }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'answer'; id: number; ok: true; value: unknown }
  | { kind: 'answer'; id: number; ok: false; error: ThreadError }
  | { kind: 'log'; level: keyof Logger; event: string; fields?: Record<string, unknown> };
export type ThreadCall = { id: number; method: keyof HubStore; args: unknown[] };

/** Opens `websub.sqlite` in `dataDir` on its own thread; rejects as createSqliteHubStore throws (StoreLockedError included). */
export async function openSqliteStoreThread(options: { dataDir: string; log?: Logger }): Promise<HubStore> {
  const worker = new Worker(new URL('./worker-main.ts', import.meta.url), { workerData: { dataDir: options.dataDir } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited: Error | undefined;
  const settleAll = (error: Error) => {
    exited = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: ThreadReply) => {
      if (reply.kind === 'open') resolve();
      else if (reply.kind === 'failed') reject(errorOf(reply.error));
      else if (reply.kind === 'log') options.log?.[reply.level](reply.event as never, reply.fields);
      else {
        const call = pending.get(reply.id);
        pending.delete(reply.id);
        // The thread holds nothing the process must wait for once no call is out.
        if (pending.size === 0) worker.unref();
        if (reply.ok) call?.resolve(reply.value);
        else call?.reject(errorOf(reply.error));
      }
    });
    worker.once('error', (error) => {
      settleAll(error);
      reject(error);
    });
    worker.once('exit', (code) => {
      const error = new Error(`the WebSub store's thread stopped (exit code ${code})`);
      settleAll(error);
      reject(error);
    });
  });
  worker.unref();

  const call = (method: keyof HubStore, args: unknown[]): Promise<unknown> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, method, args: args.map(ownBytes) } satisfies ThreadCall);
    });
  };
  const forward = <M extends keyof HubStore>(method: M) => ((...args: unknown[]) => call(method, args)) as HubStore[M];

  return {
    saveSubscription: forward('saveSubscription'),
    findSubscription: forward('findSubscription'),
    listSubscriptions: forward('listSubscriptions'),
    countSubscriptionsOf: forward('countSubscriptionsOf'),
    removeSubscription: forward('removeSubscription'),
    removeSubscriptionById: forward('removeSubscriptionById'),
    removeExpiredSubscriptions: forward('removeExpiredSubscriptions'),
    async readTopicSnapshot(topic) {
      const snapshot = (await call('readTopicSnapshot', [topic])) as (Omit<Awaited<ReturnType<HubStore['readTopicSnapshot']>> & {}, 'body'> & { body: Uint8Array }) | undefined;
      return snapshot && { ...snapshot, body: Buffer.from(snapshot.body.buffer, snapshot.body.byteOffset, snapshot.body.byteLength) };
    },
    recordTopicContent: forward('recordTopicContent'),
    claimDueDeliveries: forward('claimDueDeliveries'),
    completeDelivery: forward('completeDelivery'),
    completeDeliveries: forward('completeDeliveries'),
    failDelivery: forward('failDelivery'),
    releaseDelivery: forward('releaseDelivery'),
    listPendingDeliveries: forward('listPendingDeliveries'),
    countBacklog: forward('countBacklog'),
    check: forward('check'),
    async close() {
      if (exited) return;
      const stopped = new Promise((resolve) => worker.once('exit', resolve));
      await call('close', []);
      // Held until the thread has ended, or the process could end first and skip what follows the close.
      worker.ref();
      await stopped;
    },
  };
}

/** A snapshot's body is cloned with its whole ArrayBuffer: a Buffer cut from a larger one is copied to its own bytes first. */
function ownBytes(arg: unknown): unknown {
  if (typeof arg !== 'object' || arg === null || !('body' in arg) || !(arg.body instanceof Uint8Array)) return arg;
  const { body } = arg;
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? arg : { ...arg, body: new Uint8Array(body) };
}

function errorOf(thrown: ThreadError): Error {
  const error = thrown.name === 'StoreLockedError' ? new StoreLockedError(thrown.message) : new Error(thrown.message);
  if (thrown.name !== 'StoreLockedError') error.name = thrown.name;
  Object.assign(error, thrown.code === undefined ? {} : { code: thrown.code }, thrown.errcode === undefined ? {} : { errcode: thrown.errcode });
  return error;
}
