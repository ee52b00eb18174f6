/** Types for the parts of the `pubsubhubbub` npm package (a WebSub/PubSubHubbub 0.4 subscriber) the tests use. */
declare module 'pubsubhubbub' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type FeedEvent = { topic: string; hub: string; callback: string; feed: Buffer; headers: IncomingMessage['headers'] };
  export type SubscriptionEvent = { topic: string; hub: string; lease?: number };

  export interface PubSubHubbub extends EventEmitter {
    listener(): (req: IncomingMessage, res: ServerResponse) => void;
    subscribe(topic: string, hub: string, callback?: (err: Error | null, topic?: string) => void): void;
    unsubscribe(topic: string, hub: string, callback?: (err: Error | null, topic?: string) => void): void;
  }

  export function createServer(options: { callbackUrl: string; secret?: string; leaseSeconds?: number }): PubSubHubbub;
  const pubsubhubbub: { createServer: typeof createServer };
  export default pubsubhubbub;
}
