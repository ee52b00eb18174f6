export { createMcpRouter, type McpRouterDeps } from './router.ts';
export { buildServer, SERVER_INFO } from './server.ts';
export type { McpServerDeps } from './deps.ts';
export { createSessionIds, type SessionIds } from './session-id.ts';
