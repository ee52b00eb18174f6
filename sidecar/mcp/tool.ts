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
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_REPORTED_ISSUES, truncateName } from '../../core/schemas/errors.ts';

export type ArgumentIssue = { path: readonly PropertyKey[]; message: string };

export type ToolOutcome<T> = { ok: true; value: T } | { ok: false; issues: ArgumentIssue[] };

/** The static description of a tool: module-level, so its JSON Schemas are converted once per process. */
export type ToolSpec<Output extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: Output;
};

export type ToolHandler<Output extends z.ZodObject> = (args: Record<string, unknown>) => ToolOutcome<z.input<Output>>;

export type ToolRegistry = {
  register<Output extends z.ZodObject>(spec: ToolSpec<Output>, handler: ToolHandler<Output>): void;
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Installs the tools capability and its two handlers on `server`; tool files then `register` into it. */
export function installToolRegistry(server: McpServer): ToolRegistry {
  const tools = new Map<string, { spec: ToolSpec; handler: ToolHandler<z.ZodObject> }>();
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map(({ spec }) => describeTool(spec)),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const tool = tools.get(request.params.name);
    if (tool === undefined) {
      throw createProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${truncateName(request.params.name)}`, { tools: [...tools.keys()] });
    }
    const outcome = tool.handler(request.params.arguments ?? {});
    return outcome.ok ? toToolResult(outcome.value) : toArgumentErrorResult(tool.spec.name, outcome.issues);
  });
  return {
    register(spec, handler) {
      tools.set(spec.name, { spec, handler: handler as ToolHandler<z.ZodObject> });
    },
  };
}

/**
 * An error the SDK turns into a JSON-RPC error response with exactly this code, message and data
 * (McpError would prefix the message with "MCP error <code>: ").
 */
export function createProtocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}

/** Parses tool arguments with the tool's own schema; every problem is returned, each naming its argument. */
export function parseArguments<S extends z.ZodType>(schema: S, args: unknown): ToolOutcome<z.output<S>> {
  const parsed = schema.safeParse(args);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: toArgumentIssues(parsed.error.issues) };
}

/** zod issues as argument issues; an unknown argument becomes one issue per key, named by the key. */
export function toArgumentIssues(issues: readonly z.core.$ZodIssue[]): ArgumentIssue[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key], message: 'is not an argument of this tool' }))
      : [{ path: issue.path, message: issue.message }],
  );
}

export function toToolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * A tool execution error (MCP "Tools › Error Handling"): the model reads it and can correct its call,
 * so each line names the argument and what it must be.
 */
export function toArgumentErrorResult(toolName: string, issues: readonly ArgumentIssue[]): CallToolResult {
  const lines = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_REPORTED_ISSUES) lines.push(`- … and ${issues.length - MAX_REPORTED_ISSUES} more problems`);
  return {
    content: [{ type: 'text', text: `Invalid arguments for ${toolName}:\n${lines.join('\n')}` }],
    isError: true,
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
      annotations: { title: spec.title, ...READ_ONLY },
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
  return { ...json, type: 'object' } as Tool['inputSchema'] & Tool['outputSchema'];
}
