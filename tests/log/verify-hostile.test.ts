/**
 * `npm run verify` against servers that try to take it down or lead it elsewhere (issue 40, "Done when"):
 * real HTTP servers on loopback, each hostile in one way, and the command run as a user runs it. Each run
 * must end within two minutes, under 1 GB (its peak resident size, as /usr/bin/time reports it), with a
 * non-zero exit that says what happened, and must never contact another host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatVerifierKey, generateSigner, signCheckpoint } from '../../core/log/index.ts';
import { MAX_LOG_SIZE } from '../../core/log/log-bounds.ts';
import { fetchBounded } from '../../scripts/lib/bounded-fetch.ts';
import { runScript } from '../helpers/run-script.ts';

const ORIGIN = 'hostile.example/log';
const signer = generateSigner(ORIGIN);
const VKEY = `${formatVerifierKey(signer)}\n`;
const checkpointOf = (size: number) => signCheckpoint({ origin: ORIGIN, size, rootHash: Buffer.alloc(32, 7) }, signer);
const TWO_MINUTES_MS = 120_000;
/** Never written: every run here ends before the history step. */
const STATE = path.join(tmpdir(), `verify-hostile-${process.pid}.json`);
const ONE_GB_KB = 1024 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function withServer<T>(handler: Handler, use: (url: string, server: Server) => Promise<T>): Promise<T> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as { port: number }).port}`, server);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Serves the vkey and `checkpoint`, and hands every other path to `rest`. */
function logServer(checkpoint: string, rest: Handler): Handler {
  return (req, res) => {
    if (req.url === '/log/vkey') return void res.end(VKEY);
    if (req.url === '/log/checkpoint') return void res.end(checkpoint);
    rest(req, res);
  };
}

/** Runs verify under /usr/bin/time; its peak resident size in KiB and how long it took. */
async function verify(url: string, ...args: string[]) {
  const started = performance.now();
  const run = await runScript('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, 'scripts/verify.ts', url, '--state', STATE, ...args], { env: { PATH: process.env.PATH ?? '' } });
  const maxRssKb = Number(/maxrss_kb=(\d+)/.exec(run.stderr)?.[1]);
  return { ...run, ms: performance.now() - started, maxRssKb, stderr: run.stderr.replace(/maxrss_kb=\d+\n?/, '') };
}

function expectBounded(run: Awaited<ReturnType<typeof verify>>) {
  console.log(`verify against a hostile server: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s, peak ${Math.round(run.maxRssKb / 1024)} MB`);
  expect(run.code).not.toBe(0);
  expect(run.ms).toBeLessThan(TWO_MINUTES_MS);
  expect(run.maxRssKb).toBeGreaterThan(0);
  expect(run.maxRssKb).toBeLessThan(ONE_GB_KB);
}

describe('npm run verify against a hostile server', () => {
  it('refuses a checkpoint that claims 2^53−1 entries before reading any', async () => {
    let bundles = 0;
    await withServer(logServer(checkpointOf(Number.MAX_SAFE_INTEGER), (_req, res) => {
      bundles += 1;
      res.writeHead(404).end();
    }), async (url) => {
      const run = await verify(url);
      expectBounded(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`Cannot verify: the checkpoint claims ${Number.MAX_SAFE_INTEGER} entries, more than the ${MAX_LOG_SIZE} a reader accepts`);
      expect(bundles).toBe(0);
    });
  }, TWO_MINUTES_MS + 60_000);

  it('reads no more of a claimed log than the server really has', async () => {
    // The most a checkpoint may claim, and nothing behind it: the first missing bundle ends the run.
    const requested: string[] = [];
    await withServer(logServer(checkpointOf(MAX_LOG_SIZE), (req, res) => {
      requested.push(req.url!);
      res.writeHead(404).end();
    }), async (url) => {
      const run = await verify(url);
      expectBounded(run);
      // Bundles are read a few at a time: whichever 404 comes first ends the run.
      expect(run.stderr).toMatch(/Cannot verify: .*\/log\/tile\/entries\/\d{3} is not found \(404\)/);
      expect(requested.length).toBeLessThanOrEqual(8);
    });
  }, TWO_MINUTES_MS + 60_000);

  it('stops reading an endless entry bundle at the most a bundle can hold', async () => {
    let sent = 0;
    await withServer(logServer(checkpointOf(256), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const pump = () => {
        for (let more = true; more && !res.destroyed; sent += chunk.length) more = res.write(chunk);
      };
      res.on('drain', pump);
      pump();
    }), async (url) => {
      const run = await verify(url);
      expectBounded(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Cannot verify: .*\/log\/tile\/entries\/000 sends more than 16777472 bytes/);
    });
    expect(sent).toBeGreaterThan(256 * (2 + 65_535));
  }, TWO_MINUTES_MS + 60_000);

  it('gives up on a server that accepts and never answers', async () => {
    await withServer(() => {
      // Never answers.
    }, async (url) => {
      // A run given two seconds (by default 100) ends at two, whatever request it is waiting for.
      const run = await verify(url, '--deadline', '2');
      expectBounded(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Cannot verify: .*\/log\/vkey was still being read when the deadline for the whole run passed/);
      // Within the run, each request has its own time (by default REQUEST_TIMEOUT_MS, 20 s).
      const got = await fetchBounded(`${url}/log/vkey`, { maxBytes: 1024, timeoutMs: 500 });
      expect(got).toEqual({ ok: false, reason: `${url}/log/vkey did not answer in full within 0.5 s` });
    });
  }, TWO_MINUTES_MS + 60_000);

  it('follows a redirect within the site, and none to another host', async () => {
    let contacted = 0;
    await withServer((_req, res) => {
      contacted += 1;
      res.end(VKEY);
    }, async (elsewhere) => {
      await withServer((req, res) => {
        if (req.url === '/log/vkey') return void res.writeHead(302, { location: '/keys/current' }).end();
        if (req.url === '/keys/current') return void res.end(VKEY);
        res.writeHead(302, { location: `${elsewhere}${req.url}` }).end();
      }, async (url) => {
        const run = await verify(url);
        expectBounded(run);
        expect(run.code).toBe(2);
        // The vkey came through the redirect within the site; the checkpoint's redirect was not followed.
        expect(run.stderr).toContain(`Cannot verify: ${url}/log/checkpoint redirects to ${elsewhere}, another host: not followed`);
      });
    });
    expect(contacted).toBe(0);
  }, TWO_MINUTES_MS + 60_000);
});
