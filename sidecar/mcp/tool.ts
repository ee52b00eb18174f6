/**
 * Tool plumbing shared by every tool file. We answer `tools/list` and `tools/call` ourselves instead of
 * through `McpServer.registerTool`, for two reasons: McpServer validates arguments before a tool sees them,
 * so a schema problem (rating 7) and a domain problem (unknown technician) could not be reported together;
 * and it answers an unknown tool with a tool result, where MCP 2025-06-18 "Tools › Error Handling"
 * (and 2025-11-25) make it a protocol error, JSON-RPC -32602 (typescript-sdk#1956).
 *
 * Every tool is read-only, idempotent and closed-world; a result carries `structuredContent` matching the
 * declared `outputSchema` and the same JSON as text, for clients that only read text.
 */
import { compactJsonSchema } from './compact-schema.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { capIssues, truncateName, type ErrorIssue } from '../../core/schemas/errors.ts';
import { parseWithIssues } from '../../core/schemas/issues.ts';
import type { McpServerDeps } from './deps.ts';
import type { LiveData } from '../../core/dataset/live-data.ts';

export type ToolOutcome<T> = { ok: true; value: T } | { ok: false; issues: ErrorIssue[] };

/** The static description of a tool: module-level, so its JSON Schemas are converted once per process. */
export type ToolSpec<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  /** Its line in the instructions' "Which tool when" list (instructions.ts), after `- name: `. */
  whenToUse: string;
  inputSchema: Input;
  outputSchema: Output;
};

/** A tool: its spec, and its call with raw arguments (the registry hands them over). */
export type ToolDefinition = {
  spec: ToolSpec;
  /**
   * The spec to list for this data, when it depends on the business: the tools that filter list `location`
   * only for a business with locations (mcp/tools/location-argument.ts), so the others' tools/list stays within
   * its budget and as it was. Calls are judged by `spec` either way.
   */
  specFor?: (live: LiveData) => ToolSpec;
  call(args: Record<string, unknown>, deps: McpServerDeps): ToolOutcome<Record<string, unknown>>;
};

/** The spec a tool lists for the data served now. */
export function specOf(tool: ToolDefinition, live: LiveData): ToolSpec {
  return tool.specFor?.(live) ?? tool.spec;
}

/** What an unknown argument is called in every tool's answer. */
export const UNKNOWN_ARGUMENT = 'is not an argument of this tool';

/**
 * A tool whose arguments the registry parses with its input schema: the handler gets them typed, and a
 * schema problem is answered with every issue before the handler runs.
 */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: ToolSpec<Input, Output>,
  handle: (args: z.output<Input>, deps: McpServerDeps) => ToolOutcome<z.input<Output>>,
  specFor?: (live: LiveData) => ToolSpec,
): ToolDefinition {
  return {
    spec,
    call(args, deps) {
      const parsed = parseWithIssues(spec.inputSchema, args, { unknownKey: UNKNOWN_ARGUMENT });
      return parsed.ok ? handle(parsed.value, deps) : parsed;
    },
    ...(specFor === undefined ? {} : { specFor }),
  };
}

/**
 * A tool that judges its raw arguments itself, so schema and domain problems (rating 7 and an unknown
 * technician) are reported together: search_reviews, through the one search path.
 */
export function defineSelfCheckingTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: ToolSpec<Input, Output>,
  handle: (args: Record<string, unknown>, deps: McpServerDeps) => ToolOutcome<z.input<Output>>,
  specFor?: (live: LiveData) => ToolSpec,
): ToolDefinition {
  return { spec, call: handle, ...(specFor === undefined ? {} : { specFor }) };
}

/** MCP: destructiveHint and idempotentHint mean something only when readOnlyHint is false; leaving them out saves every agent's context. */
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Installs the tools capability on `server` and answers tools/list and tools/call from `tools`. */
export function installTools(server: McpServer, tools: readonly ToolDefinition[], deps: McpServerDeps): void {
  const byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    const live = deps.getLive();
    return { tools: tools.map((tool) => describeTool(specOf(tool, live))) };
  });
  server.server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      throw createProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${truncateName(request.params.name)}`, { tools: [...byName.keys()] });
    }
    const outcome = tool.call(request.params.arguments ?? {}, deps);
    return outcome.ok ? toToolResult(outcome.value) : toArgumentErrorResult(tool.spec.name, outcome.issues);
  });
}

/**
 * An error the SDK turns into a JSON-RPC error response with exactly this code, message and data
 * (McpError would prefix the message with "MCP error <code>: ").
 */
export function createProtocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}

export function toToolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * A tool execution error (MCP "Tools › Error Handling"): the model reads it and can correct its call,
 * so each line names the argument and what it must be. `_meta.issues` carries the same problems as the
 * REST error body's `issues` (`{ path, message, code }`), for clients that branch on the code.
 */
export function toArgumentErrorResult(toolName: string, issues: readonly ErrorIssue[]): CallToolResult {
  const { listed, more } = capIssues(issues);
  const lines = listed.map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`);
  if (more > 0) lines.push(`- … and ${more} more problems`);
  return {
    content: [{ type: 'text', text: `Invalid arguments for ${toolName}:\n${lines.join('\n')}` }],
    isError: true,
    _meta: { issues: listed },
  };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(arguments)' : path.map((p) => truncateName(String(p))).join('.');
}

const descriptions = new WeakMap<ToolSpec, Tool>();

function describeTool(spec: ToolSpec): Tool {
  let tool = descriptions.get(spec);
  if (tool === undefined) {
    tool = {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: toJsonSchema(spec.inputSchema, 'input'),
      outputSchema: toJsonSchema(spec.outputSchema, 'output'),
      annotations: READ_ONLY,
    };
    descriptions.set(spec, tool);
  }
  return tool;
}

/**
 * Draft-07, like the SDK's own conversion: the SDK client and most agents validate with Ajv's default
 * (draft-07) dialect, which does not know the 2020-12 meta-schema.
 */
function toJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] & Tool['outputSchema'] {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  return compactJsonSchema({ ...json, type: 'object' }, io) as Tool['inputSchema'] & Tool['outputSchema'];
}
