/**
 * `npm run sync -- google --authorize`: the OAuth 2.0 flow for installed apps, once. It prints Google's
 * consent URL, listens on a loopback port for the redirect that brings the code back (on a server
 * reached over SSH, the owner forwards that port with `ssh -L`, as the command says), exchanges the
 * code with its PKCE verifier (S256), and stores the refresh token in DATA_DIR (mode 0600): never in
 * the content folder, which is committed and published. Then it lists the locations the token sees.
 *
 * `--locations`: the accounts (Account Management API) and their locations (Business Information API)
 * the token can read, each as the GOOGLE_LOCATION line to set.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../core/config.ts';
import { AUTHORIZE_COMMAND, createGoogleApi, createGoogleClient, oauthErrorText, type GoogleApi, parseJson, sendWithRetries, type GoogleCredentials } from './google-api.ts';
import { describeConsentError, describeTokenRefusal } from './oauth-errors.ts';
import type { SyncContext } from './sync-source.ts';

export const SCOPE = 'https://www.googleapis.com/auth/business.manage';
const TOKEN_FILE = 'google-refresh-token';
/** How long the loopback port waits for the browser's redirect. */
const CONSENT_WAIT_MS = 10 * 60_000;

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** The refresh token `--authorize` stored, or undefined. */
export async function readStoredRefreshToken(dataDir: string): Promise<string | undefined> {
  const text = await readFile(path.join(dataDir, TOKEN_FILE), 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}

/** The OAuth client and refresh token the settings give (the token: GOOGLE_REFRESH_TOKEN, else the stored one), or what is missing. */
export async function googleCredentials(config: Config): Promise<{ ok: true; value: GoogleCredentials } | { ok: false; missing: string[] }> {
  const { clientId, clientSecret, tokenUrl } = config.google;
  const refreshToken = config.google.refreshToken ?? (await readStoredRefreshToken(config.dataDir));
  if (clientId !== undefined && clientSecret !== undefined && refreshToken !== undefined) return { ok: true, value: { clientId, clientSecret, refreshToken, tokenUrl } };
  const missing = [clientId === undefined && 'GOOGLE_CLIENT_ID', clientSecret === undefined && 'GOOGLE_CLIENT_SECRET', refreshToken === undefined && `GOOGLE_REFRESH_TOKEN (or run \`${AUTHORIZE_COMMAND}\`)`];
  return { ok: false, missing: missing.filter((name): name is string => name !== false) };
}

async function storeRefreshToken(dataDir: string, token: string): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, TOKEN_FILE);
  await replaceFile(file, `${token}\n`, { mode: 0o600 });
  return file;
}

export async function authorizeGoogle(context: SyncContext): Promise<0 | 1> {
  const { clientId, clientSecret, authUrl, tokenUrl } = context.config.google;
  if (clientId === undefined || clientSecret === undefined) {
    context.err('set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET first (a "Desktop app" OAuth client of your Google Cloud project): see docs/import.md "Sync"');
    return 1;
  }
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const received = waitForRedirect(state);
  const server = await received.listening;
  try {
    const port = (server.address() as AddressInfo).port;
    const redirectUri = `http://127.0.0.1:${port}`;
    const consent = new URL(authUrl);
    for (const [key, value] of Object.entries({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: SCOPE,
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      state,
      access_type: 'offline',
      prompt: 'consent',
    })) {
      consent.searchParams.set(key, value);
    }
    // The browser comes back to 127.0.0.1 of the machine it runs on: over SSH, that port is forwarded here.
    context.out(`On a server reached over SSH, first forward port ${port} from your own computer: ssh -N -L ${port}:127.0.0.1:${port} <you>@<server>`);
    context.out('Open this address in a browser, sign in with the Google account that manages the business, and allow access:');
    context.out(consent.href);
    const code = await received.code;
    if (!code.ok) {
      context.err(`authorisation failed: ${code.message}`);
      return 1;
    }
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: code.value, code_verifier: verifier, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri });
    const client = createGoogleClient(context);
    const answer = await sendWithRetries(
      client,
      { method: 'POST', url: tokenUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(form.toString()) },
      'exchanging the code',
      context.retryBaseMs ?? 1_000,
      oauthErrorText,
    ).finally(() => client.close());
    if (!answer.ok) {
      context.err(`authorisation failed: ${answer.message}`);
      return 1;
    }
    const json = parseJson(answer.value.body);
    const token = z.looseObject({ refresh_token: z.string().min(1) }).safeParse(json);
    if (answer.value.status !== 200 || !token.success) {
      context.err(`authorisation failed: ${answer.value.status === 200 ? 'Google gave no refresh token' : describeTokenRefusal('code', answer.value.status, json)}`);
      return 1;
    }
    const file = await storeRefreshToken(context.config.dataDir, token.data.refresh_token);
    context.out(`Authorised. The refresh token is in ${file} (mode 0600); the sync reads it from there unless GOOGLE_REFRESH_TOKEN is set.`);
    return await listGoogleLocations({ ...context, config: { ...context.config, google: { ...context.config.google, refreshToken: token.data.refresh_token } } });
  } finally {
    server.close();
  }
}

/** A loopback server that answers Google's redirect once: the code, or why there is none. */
function waitForRedirect(state: string): { listening: Promise<Server>; code: Promise<{ ok: true; value: string } | { ok: false; message: string }> } {
  let settle!: (result: { ok: true; value: string } | { ok: false; message: string }) => void;
  const code = new Promise<{ ok: true; value: string } | { ok: false; message: string }>((resolve) => (settle = resolve));
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    if (query.get('state') !== state) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('This is not the answer to this authorisation.');
      return;
    }
    const error = query.get('error');
    const value = query.get('code');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(error !== null || !value ? 'Authorisation refused: the terminal says why. You can close this tab.' : 'Authorised. You can close this tab and go back to the terminal.');
    settle(error !== null ? { ok: false, message: describeConsentError(error) } : !value ? { ok: false, message: 'Google answered without a code' } : { ok: true, value });
  });
  const timer = setTimeout(() => settle({ ok: false, message: `no answer from the browser within ${CONSENT_WAIT_MS / 60_000} minutes` }), CONSENT_WAIT_MS).unref();
  void code.then(() => clearTimeout(timer));
  const listening = new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
  return { listening, code };
}

const Accounts = z.looseObject({ accounts: z.array(z.looseObject({ name: z.string(), accountName: z.string().optional() })).optional(), nextPageToken: z.string().optional() });
const Locations = z.looseObject({ locations: z.array(z.looseObject({ name: z.string(), title: z.string().optional() })).optional(), nextPageToken: z.string().optional() });

/** A location the token can read: its v4 name (`accounts/…/locations/…`), its title and its account's. */
export type GoogleLocation = { name: string; title?: string; accountName: string };

/** Every location of every account the token can read (the Account Management and Business Information APIs). */
export async function readGoogleLocations(api: GoogleApi, google: Config['google']): Promise<{ ok: true; value: GoogleLocation[] } | { ok: false; message: string }> {
  const accounts = await api.getJson(`${google.accountsApiUrl}/accounts?pageSize=20`);
  if (!accounts.ok) return accounts;
  const list = Accounts.safeParse(accounts.value);
  if (!list.success) return { ok: false, message: "Google's list of accounts is not what the Account Management API returns" };
  const found: GoogleLocation[] = [];
  for (const account of list.data.accounts ?? []) {
    const locations = await api.getJson(`${google.locationsApiUrl}/${account.name}/locations?readMask=name,title&pageSize=100`);
    if (!locations.ok) return locations;
    const parsed = Locations.safeParse(locations.value);
    if (!parsed.success) return { ok: false, message: "Google's list of locations is not what the Business Information API returns" };
    for (const location of parsed.data.locations ?? []) {
      found.push({ name: `${account.name}/${location.name}`, title: location.title, accountName: account.accountName ?? account.name });
    }
  }
  return { ok: true, value: found };
}

export async function listGoogleLocations(context: SyncContext): Promise<0 | 1> {
  const credentials = await googleCredentials(context.config);
  if (!credentials.ok) {
    context.err(`set ${credentials.missing.join(', ')}: see docs/import.md "Sync"`);
    return 1;
  }
  const api = createGoogleApi(credentials.value, context);
  try {
    const listed = await readGoogleLocations(api, context.config.google);
    if (!listed.ok) return failed(context, listed.message);
    for (const location of listed.value) context.out(`GOOGLE_LOCATION=${location.name}  (${location.title ?? 'untitled'}, account ${location.accountName})`);
    if (listed.value.length === 0) context.out('This Google account manages no location: authorise with the account that manages the business.');
    else context.out('Put the line of your business in .env (or the environment of the scheduled sync); several locations: their names separated by commas, or GOOGLE_LOCATION=all.');
    return 0;
  } finally {
    api.close();
  }
}

function failed(context: SyncContext, message: string): 1 {
  context.err(`listing locations failed: ${message}`);
  return 1;
}
