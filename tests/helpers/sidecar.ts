/** Starts the real sidecar on an ephemeral port with a literal config (no environment reads). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../core/config.ts';
import { startSidecar, type SidecarOptions } from '../../sidecar/server.ts';

/** `sidecar` passes options such as the test CA for the hub's callback client. */
export async function startTestSidecar(options: { distDir: string; publicUrl?: string; env?: Record<string, string>; sidecar?: SidecarOptions }) {
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
  const sidecar = await startSidecar(config, options.sidecar);
  return { ...sidecar, config };
}
