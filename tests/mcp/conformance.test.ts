/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run offline against a local
 * URL) for the server scenarios that apply to this server. The others exercise fixture tools, resources
 * and prompts the suite expects a test server to implement (`test_simple_text`, `test://static-text`,
 * `test_prompt_with_arguments`, …), or capabilities this read-only stateless server does not offer
 * (logging, sampling, elicitation, subscriptions, SSE resumption); they are listed below
 * with the reason, and one test checks that the list still covers every scenario the suite knows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpRouter } from '../../sidecar/mcp/index.ts';
import { listen, loadFixtureLive, TEST_SECRET, type RunningApp } from './mcp-fixture.ts';

const run = promisify(execFile);
const CLI = path.join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

export const APPLICABLE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

export const EXCLUDED_SCENARIOS: Record<string, string> = {
  'logging-set-level': 'no logging capability: a stateless server has no later notifications to filter',
  'completion-complete': 'completes test_prompt_with_arguments, a fixture prompt (our completions are tested in client.test.ts)',
  'tools-call-simple-text': 'calls the fixture tool test_simple_text',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'calls a fixture tool that sends log notifications',
  'tools-call-error': 'calls the fixture tool test_error_handling (our tool errors are tested in client.test.ts)',
  'tools-call-with-progress': 'calls a fixture tool that sends progress notifications',
  'tools-call-sampling': 'calls a fixture tool that asks the client to sample; read-only tools need no model',
  'tools-call-elicitation': 'calls a fixture tool that elicits input; no tool here asks the user anything',
  'json-schema-2020-12': 'lists the fixture tool json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'calls a fixture tool that elicits input',
  'elicitation-sep1330-enums': 'calls a fixture tool that elicits input',
  'server-sse-polling': 'calls the fixture tool test_reconnection, which closes its SSE stream mid-call; this server answers JSON',
  'resources-read-text': 'reads the fixture resource test://static-text',
  'resources-read-binary': 'reads the fixture resource test://static-binary',
  'resources-templates-read': 'reads the fixture template test://template/{id}/data (our template is tested in client.test.ts)',
  'resources-subscribe': 'no subscriptions: resources change only on publish, announced through WebSub',
  'resources-unsubscribe': 'no subscriptions (see resources-subscribe)',
  'prompts-get-simple': 'gets the fixture prompt test_simple_prompt',
  'prompts-get-with-args': 'gets the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'gets the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'gets the fixture prompt test_prompt_with_image',
};

let app: RunningApp;
let outputDir: string;

beforeAll(async () => {
  const live = await loadFixtureLive();
  let handler: express.Express | undefined;
  app = await listen((req, res) => handler!(req, res));
  // dns-rebinding-protection sends Origin http://localhost:<port>: that is our public origin here.
  const publicUrl = `http://localhost:${new URL(app.url).port}`;
  handler = express().use(createMcpRouter({ getLive: () => live, config: { publicUrl, mcp: { sessionSecret: TEST_SECRET, allowedOrigins: [] } } }));
  outputDir = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await app?.close();
  if (outputDir) await rm(outputDir, { recursive: true, force: true });
});

type Check = { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'; errorMessage?: string };

async function runScenario(scenario: string): Promise<Check[]> {
  const dir = path.join(outputDir, scenario);
  const url = `http://localhost:${new URL(app.url).port}/mcp`;
  // Async execFile: the server under test runs in this very process.
  await run(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', dir], { timeout: 60_000 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const files = await readdir(dir, { recursive: true });
  const checksFile = files.find((f) => f.endsWith('checks.json'));
  if (checksFile === undefined) throw new Error(`no checks.json for ${scenario}`);
  return JSON.parse(await readFile(path.join(dir, checksFile), 'utf8')) as Check[];
}

describe('MCP conformance suite', () => {
  it.each(APPLICABLE_SCENARIOS)('passes %s', async (scenario) => {
    const checks = await runScenario(scenario);
    const failures = checks.filter((c) => c.status === 'FAILURE');
    expect(failures, JSON.stringify(failures, null, 2)).toEqual([]);
    expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
  });

  it('accounts for every server scenario the suite knows', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'list'], { timeout: 30_000 });
    const serverPart = stdout.split(/Client scenarios/i)[0]!;
    const known = [...serverPart.matchAll(/^\s*-\s+(\S+)/gm)].map((m) => m[1]!);
    expect(known.length).toBeGreaterThan(10);
    const accounted = new Set<string>([...APPLICABLE_SCENARIOS, ...Object.keys(EXCLUDED_SCENARIOS)]);
    expect(known.filter((s) => !accounted.has(s))).toEqual([]);
  });
});
