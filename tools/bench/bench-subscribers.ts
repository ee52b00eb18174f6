/**
 * The WebSub benchmarks' subscribers (websub.ts, websub-slices.ts): one HTTPS server on loopback for
 * every callback path, counting the distinct paths that received what they should.
 */
import { createServer } from 'node:https';

/** Whether the notification a callback path received is the content it should have. */
export type ExpectedContent = (path: string, body: Buffer) => boolean;

export async function startBenchSubscribers(tls: { key: string; cert: string }, timeoutMs: number) {
  let isExpected: ExpectedContent = () => false;
  let reached = new Set<string>();
  let wrong = 0;
  let total = 0;
  let target = Infinity;
  let onDone: (() => void) | undefined;
  const server = createServer({ ...tls, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      total += 1;
      const path = req.url ?? '';
      if (isExpected(path, Buffer.concat(chunks))) reached.add(path);
      else wrong += 1;
      res.writeHead(204).end();
      if (reached.size >= target) onDone?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `https://127.0.0.1:${port}`,
    /** Resolves once `count` distinct paths received what `expected` accepts (a body for all, or a rule). */
    expect(expected: Buffer | ExpectedContent, count: number) {
      isExpected = Buffer.isBuffer(expected) ? (_path, body) => body.equals(expected) : expected;
      reached = new Set();
      wrong = 0;
      total = 0;
      target = count;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${reached.size} of ${count} subscribers reached in ${timeoutMs / 1000} s`)), timeoutMs);
        onDone = () => {
          clearTimeout(timer);
          onDone = undefined;
          resolve();
        };
      });
    },
    counts: () => ({ reached: reached.size, wrong, total }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
