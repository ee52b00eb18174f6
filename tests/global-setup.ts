/**
 * Gives the whole test run one private temporary folder (TMPDIR, inherited by the test workers
 * and every child process they start) and removes it at the end, so builds, stores and callback
 * servers made by tests leave nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'reviews-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
