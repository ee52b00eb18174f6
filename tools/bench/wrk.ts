/** Runs `wrk` (one thread, keep-alive connections) and reads its summary: requests/s, p50, p99, errors. */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export type WrkRequest = { url: string; method?: string; headers?: Record<string, string>; body?: string };
export type WrkResult = { rps: number; p50Ms: number; p99Ms: number; requests: number; bad: number };

export async function runWrk(request: WrkRequest, options: { connections: number; seconds: number }): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (request.method !== undefined || request.body !== undefined) {
    const script = path.join(tmpdir(), `wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
    await writeFile(script, `wrk.method = ${luaString(request.method ?? 'POST')}\nwrk.body = ${luaString(request.body ?? '')}\n`);
    args.push('-s', script);
  }
  args.push(request.url);
  const { stdout } = await promisify(execFile)('wrk', args, { maxBuffer: 1 << 22 });
  const number = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? NaN);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: toMs(/\s50%\s+([\d.]+\w+)/.exec(stdout)?.[1]),
    p99Ms: toMs(/\s99%\s+([\d.]+\w+)/.exec(stdout)?.[1]),
    requests: number(/(\d+) requests in/),
    bad: number(/Non-2xx or 3xx responses: (\d+)/) || 0,
  };
}

function toMs(value: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value ?? '');
  if (!match) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(match[1]) * scale;
}

function luaString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
