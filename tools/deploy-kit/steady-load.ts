/**
 * A steady stream of requests for tools/deploy-kit/run.sh: `workers` clients (keep-alive, as a browser
 * behind the proxy would be) each ask for `paths` in turn, `gapMs` apart, until SIGTERM or SIGINT; then
 * one JSON line: how many were sent, answered 200, and every failure (status or error) with its time and
 * the phase run.sh was in (it writes the phase's name into `phaseFile`).
 *
 *   node tools/deploy-kit/steady-load.ts http://127.0.0.1:18081 /tmp/phase > /tmp/load.json
 */
import { readFileSync } from 'node:fs';

const [base, phaseFile] = process.argv.slice(2);
if (!base || !phaseFile) {
  console.error('usage: node tools/deploy-kit/steady-load.ts <base URL> <phase file>');
  process.exit(2);
}
const paths = ['/reviews.json', '/', '/api/reviews/search?query=leak', '/feed.xml'];
const workers = 4;
const gapMs = 20;

type Failure = { at: string; phase: string; path: string; reason: string };
const byPhase: Record<string, { sent: number; ok: number }> = {};
const failures: Failure[] = [];
let running = true;

const phase = () => {
  try {
    return readFileSync(phaseFile, 'utf8').trim() || 'start';
  } catch {
    return 'start';
  }
};

async function worker(offset: number): Promise<void> {
  for (let i = offset; running; i += 1) {
    const path = paths[i % paths.length]!;
    const now = phase();
    const counts = (byPhase[now] ??= { sent: 0, ok: 0 });
    counts.sent += 1;
    try {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (response.status === 200) counts.ok += 1;
      else failures.push({ at: new Date().toISOString(), phase: now, path, reason: `HTTP ${response.status}` });
    } catch (error) {
      const cause = (error as Error & { cause?: Error & { code?: string } }).cause;
      failures.push({ at: new Date().toISOString(), phase: now, path, reason: cause?.code ?? cause?.message ?? (error as Error).message });
    }
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

const done = Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    running = false;
    void done.then(() => {
      const sent = Object.values(byPhase).reduce((n, p) => n + p.sent, 0);
      const ok = Object.values(byPhase).reduce((n, p) => n + p.ok, 0);
      console.log(JSON.stringify({ sent, ok, failed: failures.length, byPhase, failures: failures.slice(0, 50) }));
      process.exit(0);
    });
  });
}
