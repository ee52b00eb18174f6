/** Starts the real sidecar on an ephemeral port with a literal config (no environment reads). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../sidecar/config.ts';
import { startSidecar } from '../../sidecar/server.ts';

export async function startTestSidecar(options: { distDir: string; publicUrl?: string; env?: Record<string, string> }) {
  const parsed = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: options.publicUrl ?? 'https://reviews.example.com',
    DIST_DIR: options.distDir,
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'reviews-data-')),
    LOG_LEVEL: 'silent',
    MCP_SESSION_SECRET: 'test-secret-test-secret-test-secret',
    ...options.env,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const config: Config = parsed.config;
  const sidecar = await startSidecar(config);
  return { ...sidecar, config };
}
