/**
 * Runs tlog-check.wasm (Go's sumdb/tlog and sumdb/note, built by build.sh) under Node:
 *   node tools/tlog-check/run.ts -dir LOG [-key VKEY_FILE] [-old CHECKPOINT]... [-entries]
 * Go 1.19's wasm_exec.js expects the browser's globals; Node has `crypto`, `performance` and the
 * text codecs already (Node 20 and later), so only `fs` is handed in, for the program's file reads
 * and its writes to stdout and stderr. The `crypto` shim is there for an older Node.
 */
import fs from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';

type GoRuntime = { argv: string[]; env: Record<string, string>; exit: (code: number) => void; importObject: WebAssembly.Imports; run(instance: WebAssembly.Instance): Promise<void> };

const globals = globalThis as unknown as { fs?: typeof fs; crypto?: { getRandomValues(b: Uint8Array): Uint8Array }; Go?: new () => GoRuntime };
globals.fs = fs;
globals.crypto ??= { getRandomValues: (b) => randomFillSync(b) };
await import(new URL('./wasm_exec.js', import.meta.url).href);

const go = new globals.Go!();
go.argv = ['tlog-check', ...process.argv.slice(2)];
go.env = { TMPDIR: '/tmp' };
go.exit = (code) => (process.exitCode = code);
const { instance } = await WebAssembly.instantiate(await readFile(new URL('./tlog-check.wasm', import.meta.url)), go.importObject);
await go.run(instance);
