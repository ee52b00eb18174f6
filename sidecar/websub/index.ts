export { createHub, type Hub, type HubAnswer, type HubDeps, type HubOptions, type TopicCheck } from './hub.ts';
export { createHubRouter, type HubRouterOptions } from './hub-router.ts';
export type { TopicContent, TopicSource } from './topic-source.ts';
export type { HubStore, Subscription, PendingDelivery } from './hub-store.ts';
export { createSqliteHubStore } from './sqlite-store.ts';
export { createPostgresHubStore, type PostgresHubStoreOptions } from './postgres-store.ts';
export { openHubStore } from './open-store.ts';
export { createCallbackClient, CALLBACK_CLIENT_DEFAULTS, type CallbackClient, type CallbackClientOptions } from './callback-client.ts';
