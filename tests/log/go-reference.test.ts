/**
 * Go's reference packages for checksum-database logs (golang.org/x/mod/sumdb/tlog and sumdb/note, in
 * tools/tlog-check, built to WebAssembly from Debian's Go) verify the logs our core/log writes: the
 * checkpoint's signature, the tree hash from the tiles, every entry of the bundles against its record
 * hash, and the consistency of every smaller log with the larger ones (issue 27, "Done when").
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLogFiles, encodeEntryBundle, encodeLogEntry, generateSigner, type LogEntry } from '../../core/log/index.ts';
import { runTlogCheck } from '../helpers/tlog-check.ts';

const ORIGIN = 'reviews.example.com/log';
const SIZES = [0, 1, 255, 256, 257, 70_000];
const signer = generateSigner(ORIGIN);

/** A plausible log: publishes, some updates and withdrawals. */
function entryAt(i: number): LogEntry {
  const common = { review_id: `r-${i % 50_000}`, time: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z'), date: '2025-01-01', rating: 1 + (i % 5) };
  if (i % 97 === 96) return { action: 'withdraw', ...common, reason: 'customer_request' };
  return { action: i % 13 === 12 ? 'update' : 'publish', ...common, digest: Buffer.alloc(32, i % 251).toString('base64') };
}
const ENTRIES = Array.from({ length: Math.max(...SIZES) }, (_, i) => encodeLogEntry(entryAt(i)));

let work: string;
const checkpoints = new Map<number, string>();

async function writeLog(dir: string, files: Map<string, Buffer>) {
  for (const [p, bytes] of files) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), bytes);
  }
}

const logDir = (size: number) => path.join(work, `log-${size}`);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'go-reference-'));
  for (const size of SIZES) {
    const { files } = buildLogFiles({ origin: ORIGIN, entries: ENTRIES.slice(0, size), signer });
    await writeLog(logDir(size), files);
    checkpoints.set(size, files.get('checkpoint')!.toString('utf8'));
  }
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('our log, checked by golang.org/x/mod/sumdb', () => {
  it.each(SIZES)('accepts a log of %i entries: signature, tree hash from the tiles, every entry, consistency with every smaller log', async (size) => {
    const smaller = SIZES.filter((s) => s <= size);
    const report = await runTlogCheck(logDir(size), { olds: smaller.map((s) => checkpoints.get(s)!), entries: size <= 257 });
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ ok: true, exitCode: 0, origin: ORIGIN, key_name: ORIGIN, size, entries_checked: size, consistent_with: smaller });
    if (size <= 257) expect(report.entries ?? []).toEqual(ENTRIES.slice(0, size).map((e) => e.toString('utf8')));
  }, 60_000);
});

describe('what Go refuses (so the checks above can fail)', () => {
  const tampered = async (name: string, change: (dir: string) => Promise<void>) => {
    const dir = path.join(work, name);
    await writeLog(dir, buildLogFiles({ origin: ORIGIN, entries: ENTRIES.slice(0, 300), signer }).files);
    await change(dir);
    return dir;
  };

  it('an entry changed in its bundle', async () => {
    const changed = [...ENTRIES.slice(256, 299), encodeLogEntry({ ...entryAt(299), rating: 1 } as LogEntry)];
    const dir = await tampered('changed-entry', (d) => writeFile(path.join(d, 'tile/entries/001.p/44'), encodeEntryBundle(changed)));
    const report = await runTlogCheck(dir);
    expect(report.exitCode).toBe(1);
    expect(report.errors).toEqual(['entries: entry 299 does not match its record hash in the tiles']);
  });

  it('a hash tile changed', async () => {
    const dir = await tampered('changed-tile', (d) => writeFile(path.join(d, 'tile/1/000.p/1'), Buffer.alloc(32, 7)));
    const report = await runTlogCheck(dir);
    expect(report.exitCode).toBe(1);
    expect(report.errors).toEqual(['tiles: downloaded inconsistent tile']);
  });

  it('an entry and its level-0 tile rewritten together (a tile x/mod 0.7.0 TileHashReader leaves unauthenticated)', async () => {
    const rewritten = [encodeLogEntry({ ...entryAt(0), rating: 5 } as LogEntry), ...ENTRIES.slice(1, 256)];
    const forged = buildLogFiles({ origin: ORIGIN, entries: rewritten, signer }).files;
    const dir = await tampered('rewritten-entry-and-tile', async (d) => {
      await writeFile(path.join(d, 'tile/entries/000'), forged.get('tile/entries/000')!);
      await writeFile(path.join(d, 'tile/0/000'), forged.get('tile/0/000')!);
    });
    const report = await runTlogCheck(dir);
    expect(report.exitCode).toBe(1);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatch(/^entries: the entries hash to \S+, the checkpoint says \S+$/);
  });

  it('a checkpoint signed by another key', async () => {
    const other = generateSigner(ORIGIN);
    const dir = await tampered('other-key', (d) => writeFile(path.join(d, 'checkpoint'), buildLogFiles({ origin: ORIGIN, entries: ENTRIES.slice(0, 300), signer: other }).files.get('checkpoint')!));
    const report = await runTlogCheck(dir);
    expect(report.exitCode).toBe(1);
    expect(report.errors).toEqual(['checkpoint: signature: note has no verifiable signatures']);
  });

  it('a fork: an older checkpoint of a different history, signed by the same key', async () => {
    const rewritten = [...ENTRIES.slice(0, 256), encodeLogEntry({ ...entryAt(256), rating: 5 } as LogEntry)];
    const forked = buildLogFiles({ origin: ORIGIN, entries: rewritten, signer }).files.get('checkpoint')!.toString('utf8');
    const report = await runTlogCheck(logDir(70_000), { olds: [checkpoints.get(256)!, forked] });
    expect(report.exitCode).toBe(1);
    expect(report.consistent_with).toEqual([256]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatch(/^consistency with .*old-1: not extended by the new tree \(a fork\)/);
  });
});
