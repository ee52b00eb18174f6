/**
 * The MCP server of the reviews service: seven read-only tools, two resources and a review template, three
 * prompts. Built fresh for every HTTP request (see transport.ts), so it holds no state between requests.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpServerDeps } from './deps.ts';
import { writeInstructions } from './instructions.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { installToolRegistry } from './tool.ts';
import { registerGetBusinessTool } from './tools/get-business.ts';
import { registerGetInsightsTool } from './tools/get-insights.ts';
import { registerGetRatingSummaryTool } from './tools/get-rating-summary.ts';
import { registerGetReviewTool } from './tools/get-review.ts';
import { registerGetReviewsSinceTool } from './tools/get-reviews-since.ts';
import { registerRankTechniciansTool } from './tools/rank-technicians.ts';
import { registerSearchReviewsTool } from './tools/search-reviews.ts';

export const SERVER_INFO = { name: 'reviews-service', title: 'Customer reviews', version: '1.0.0' } as const;

/**
 * The SDK validates elicitation answers with it, which this server never requests; without one passed
 * in, every server would compile a fresh Ajv instance, the largest cost of a per-request server.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

export function buildServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: writeInstructions(deps.getLive()), jsonSchemaValidator });
  const tools = installToolRegistry(server);
  registerGetBusinessTool(tools, deps);
  registerSearchReviewsTool(tools, deps);
  registerGetReviewTool(tools, deps);
  registerGetReviewsSinceTool(tools, deps);
  registerGetRatingSummaryTool(tools, deps);
  registerGetInsightsTool(tools, deps);
  registerRankTechniciansTool(tools, deps);
  registerResources(server, deps);
  registerPrompts(server, deps);
  // The SDK advertises listChanged for resources and prompts, but a stateless server without a stream
  // can never send the notification: advertise what is true.
  server.server.registerCapabilities({ resources: { listChanged: false }, prompts: { listChanged: false } });
  return server;
}
