/**
 * Runs Go's reference verifier (tools/tlog-check: golang.org/x/mod/sumdb/tlog and sumdb/note, built to
 * WebAssembly) over a log folder, as a child process on this Node, and returns its report.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScript } from './run-script.ts';

export type TlogCheckReport = {
  ok: boolean;
  origin: string;
  key_name: string;
  size: number;
  root_hash: string;
  entries_checked: number;
  consistent_with: number[];
  entries?: string[];
  errors: string[];
};

const RUNNER = path.resolve('tools/tlog-check/run.ts');

/** `olds`: older checkpoints (their text) the log must extend; `vkey`: a key other than `dir/vkey`. */
export async function runTlogCheck(dir: string, options: { olds?: readonly string[]; vkey?: string; entries?: boolean } = {}): Promise<TlogCheckReport & { exitCode: number | null }> {
  const args = ['-dir', dir];
  const scratch = await mkdtemp(path.join(tmpdir(), 'tlog-check-'));
  for (const [i, text] of (options.olds ?? []).entries()) {
    const file = path.join(scratch, `old-${i}`);
    await writeFile(file, text);
    args.push('-old', file);
  }
  if (options.vkey !== undefined) {
    await writeFile(path.join(scratch, 'vkey'), options.vkey);
    args.push('-key', path.join(scratch, 'vkey'));
  }
  if (options.entries) args.push('-entries');
  const run = await runScript(process.execPath, [RUNNER, ...args], { env: { PATH: process.env.PATH ?? '' } });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  let report: TlogCheckReport;
  try {
    report = JSON.parse(line) as TlogCheckReport;
  } catch {
    throw new Error(`tlog-check printed no report (exit ${run.code}): ${run.stdout}${run.stderr}`);
  }
  return { ...report, exitCode: run.code };
}

/**
 * Go's check of C2SP tlog-proofs (`tlog-check -proof`), in one run: each checkpoint's signature and
 * tlog.CheckRecord; `entries` lists the entry of each proof that holds, in order.
 */
export async function runTlogProofCheck(proofFiles: readonly string[], vkeyFile: string): Promise<TlogCheckReport & { exitCode: number | null }> {
  const run = await runScript(process.execPath, [RUNNER, '-key', vkeyFile, ...proofFiles.flatMap((f) => ['-proof', f])], { env: { PATH: process.env.PATH ?? '' } });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return { ...(JSON.parse(line) as TlogCheckReport), exitCode: run.code };
  } catch {
    throw new Error(`tlog-check printed no report (exit ${run.code}): ${run.stdout}${run.stderr}`);
  }
}
