/**
 * The MCP server of the reviews service: eight read-only tools, two resources and a review template, three
 * prompts. Built fresh for every HTTP request (see transport.ts), so it holds no state between requests.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpServerDeps } from './deps.ts';
import { writeInstructions } from './instructions.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { installTools, specOf, type ToolDefinition } from './tool.ts';
import { getBusinessTool } from './tools/get-business.ts';
import { getInsightsTool } from './tools/get-insights.ts';
import { getRatingSummaryTool } from './tools/get-rating-summary.ts';
import { getReviewTool } from './tools/get-review.ts';
import { getReviewsSinceTool } from './tools/get-reviews-since.ts';
import { getChangesTool } from './tools/get-changes.ts';
import { rankTechniciansTool } from './tools/rank-technicians.ts';
import { searchReviewsTool } from './tools/search-reviews.ts';

export const SERVER_INFO = { name: 'reviews-service', title: 'Customer reviews', version: '1.0.0' } as const;

/**
 * The SDK validates elicitation answers with it, which this server never requests; without one passed
 * in, every server would compile a fresh Ajv instance, the largest cost of a per-request server.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** Every tool, in the order tools/list and the instructions' "Which tool when" list give them. */
export const TOOLS: readonly ToolDefinition[] = [getBusinessTool, searchReviewsTool, getReviewTool, getReviewsSinceTool, getChangesTool, getRatingSummaryTool, getInsightsTool, rankTechniciansTool];

/**
 * The server for one message: built for every request (transport.ts), so it registers only what that
 * message can reach. A `tools/call` needs the tools, not the prompts' and resources' schemas, which were
 * a third of the cost of building it (issue 32: MCP answers); a notification needs none of them.
 * `initialize`, and any other method, gets everything, with the instructions and the capabilities.
 */
export function buildServer(deps: McpServerDeps, method?: string): McpServer {
  const only = ['tools', 'prompts', 'resources', 'notifications'].find((room) => method?.startsWith(`${room}/`));
  const instructions = only === undefined ? writeInstructions(deps.getLive(), TOOLS.map((tool) => specOf(tool, deps.getLive()))) : undefined;
  const server = new McpServer(SERVER_INFO, { instructions, jsonSchemaValidator });
  if (only === undefined || only === 'tools') installTools(server, TOOLS, deps);
  if (only === undefined || only === 'resources') registerResources(server, deps);
  if (only === undefined || only === 'prompts') registerPrompts(server, deps);
  // The SDK advertises listChanged for resources and prompts, but a stateless server without a stream
  // can never send the notification: advertise what is true.
  if (only === undefined) server.server.registerCapabilities({ resources: { listChanged: false }, prompts: { listChanged: false } });
  return server;
}
