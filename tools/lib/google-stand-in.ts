/**
 * A local HTTPS stand-in for Google (signed by the suite's test CA): the OAuth token endpoint (refresh
 * tokens, and authorisation codes checked against their PKCE challenge), the consent page (a redirect
 * back to the loopback address it was given), `accounts.locations.reviews.list` v4 for each of its
 * locations (newest change first, pages by offset, `totalReviewCount`), and the account and location lists. Tests change its reviews and
 * queue faults (`failNext`) the way the real API behaves, and make its paging hostile (`paging`).
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startHttpsCallbackServer, type HttpsCallbackServer, type RecordedRequest, type TestCa } from './https-ca.ts';

export const LOCATION = 'accounts/1/locations/2';
/** A second location of the same account, empty until a test gives it reviews (`more`). */
export const SECOND_LOCATION = 'accounts/1/locations/3';
export const REFRESH_TOKEN = 'refresh-token-of-the-owner';
export const CLIENT = { id: 'client-id.apps.example', secret: 'client-secret' };

export type GoogleReview = {
  reviewId: string;
  reviewer?: { displayName?: string; isAnonymous?: boolean };
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
  reviewMediaItems?: { googleUrl: string; mediaFormat?: 'PHOTO' | 'VIDEO'; thumbnailUrl?: string; description?: string }[];
};

type Fault = { match: (req: RecordedRequest) => boolean; answer: (res: ServerResponse) => void };

export type GoogleStandIn = {
  server: HttpsCallbackServer;
  /** The reviews of LOCATION, in any order (listed newest `updateTime` first). */
  reviews: GoogleReview[];
  /** The reviews of other locations (SECOND_LOCATION…), by name; each is listed among the account's. */
  more: Map<string, GoogleReview[]>;
  /** What `totalReviewCount` says, when not the number of reviews; null leaves it out. */
  countOverride?: number | null;
  /**
   * `forever`: every page names a next one, past the last review (empty pages); `loop`: the last page
   * names the second page again. Unset: the listing ends on its last page.
   */
  paging?: 'forever' | 'loop';
  /** Photos served at their path (`/photos/…`), as `reviewMediaItems[].googleUrl` names them. */
  photos: Map<string, Buffer>;
  /** A refresh token Google no longer honours gives invalid_grant. */
  revoked: boolean;
  /** Answers the next request that matches with `answer` instead (each fault once, in order). */
  failNext(match: (req: RecordedRequest) => boolean, answer: (res: ServerResponse) => void): void;
  /** Once the next page is served, the access tokens given so far stop working (an hour has passed). */
  expireAccessTokensAfterNextPage(): void;
  /** Requests for review pages since the last call. */
  takePageRequests(): RecordedRequest[];
  tokenRequests(): RecordedRequest[];
  /** The GOOGLE_* settings that point at the stand-in. */
  env(): Record<string, string>;
  close(): Promise<void>;
};

export const isPage = (req: RecordedRequest) => req.path.endsWith('/reviews');

export async function startGoogleStandIn(ca: TestCa): Promise<GoogleStandIn> {
  const faults: Fault[] = [];
  const validTokens = new Set<string>();
  const codes = new Map<string, { challenge: string; method: string; redirectUri: string }>();
  let issued = 0;
  let pagesSeen = 0;
  let expireAfterPage = false;
  const json = (res: ServerResponse, status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const apiError = (res: ServerResponse, code: number, status: string, message: string) => json(res, code, { error: { code, status, message } });

  const standIn: GoogleStandIn = {
    server: undefined as unknown as HttpsCallbackServer,
    reviews: [],
    more: new Map(),
    photos: new Map(),
    revoked: false,
    failNext: (match, answer) => void faults.push({ match, answer }),
    expireAccessTokensAfterNextPage: () => void (expireAfterPage = true),
    takePageRequests() {
      const pages = standIn.server.requests.filter(isPage);
      const fresh = pages.slice(pagesSeen);
      pagesSeen = pages.length;
      return fresh;
    },
    tokenRequests: () => standIn.server.requests.filter((r) => r.path === '/token'),
    env: () => ({
      GOOGLE_CLIENT_ID: CLIENT.id,
      GOOGLE_CLIENT_SECRET: CLIENT.secret,
      GOOGLE_REFRESH_TOKEN: REFRESH_TOKEN,
      GOOGLE_LOCATION: LOCATION,
      GOOGLE_API_URL: standIn.server.url('/v4'),
      GOOGLE_TOKEN_URL: standIn.server.url('/token'),
      GOOGLE_AUTH_URL: standIn.server.url('/auth'),
      GOOGLE_ACCOUNTS_API_URL: standIn.server.url('/am/v1'),
      GOOGLE_LOCATIONS_API_URL: standIn.server.url('/bi/v1'),
    }),
    close: () => standIn.server.close(),
  };

  const token = (req: RecordedRequest, res: ServerResponse) => {
    const form = new URLSearchParams(req.body.toString());
    if (form.get('client_id') !== CLIENT.id || form.get('client_secret') !== CLIENT.secret) return json(res, 401, { error: 'invalid_client' });
    const access = `access-${++issued}`;
    if (form.get('grant_type') === 'refresh_token') {
      if (standIn.revoked || form.get('refresh_token') !== REFRESH_TOKEN) return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      validTokens.add(access);
      return json(res, 200, { access_token: access, expires_in: 3599, token_type: 'Bearer' });
    }
    const code = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!code || code.method !== 'S256' || code.challenge !== challenge || code.redirectUri !== form.get('redirect_uri')) {
      return json(res, 400, { error: 'invalid_grant', error_description: 'Bad code, PKCE verifier or redirect_uri.' });
    }
    codes.delete(form.get('code')!);
    validTokens.add(access);
    return json(res, 200, { access_token: access, refresh_token: REFRESH_TOKEN, expires_in: 3599, token_type: 'Bearer' });
  };

  const consent = (req: RecordedRequest, res: ServerResponse) => {
    const q = req.query;
    const redirect = URL.parse(q.get('redirect_uri') ?? '');
    const loopback = redirect?.protocol === 'http:' && (redirect.hostname === '127.0.0.1' || redirect.hostname === '[::1]');
    if (!loopback || q.get('client_id') !== CLIENT.id || q.get('scope') !== 'https://www.googleapis.com/auth/business.manage' || q.get('response_type') !== 'code') {
      return void res.writeHead(400).end('bad consent request');
    }
    const code = `code-${++issued}`;
    codes.set(code, { challenge: q.get('code_challenge') ?? '', method: q.get('code_challenge_method') ?? '', redirectUri: q.get('redirect_uri')! });
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: redirect.href }).end();
  };

  const page = (req: RecordedRequest, res: ServerResponse) => {
    if (req.query.get('orderBy') !== 'updateTime desc' || req.query.get('pageSize') !== '50') return apiError(res, 400, 'INVALID_ARGUMENT', 'expected orderBy=updateTime desc&pageSize=50');
    const location = req.path.slice('/v4/'.length, -'/reviews'.length);
    const reviews = location === LOCATION ? standIn.reviews : standIn.more.get(location);
    if (reviews === undefined) return apiError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const sorted = [...reviews].sort((a, b) => Date.parse(b.updateTime) - Date.parse(a.updateTime));
    const from = Number(req.query.get('pageToken') ?? '0');
    const body: Record<string, unknown> = { averageRating: 4.5 };
    if (standIn.countOverride !== null) body.totalReviewCount = standIn.countOverride ?? sorted.length;
    const slice = sorted.slice(from, from + 50);
    if (slice.length > 0) body.reviews = slice.map((r) => ({ name: `${location}/reviews/${r.reviewId}`, ...r }));
    if (from + 50 < sorted.length || standIn.paging === 'forever') body.nextPageToken = String(from + 50);
    else if (standIn.paging === 'loop') body.nextPageToken = '50';
    json(res, 200, body);
    if (expireAfterPage) [expireAfterPage] = [false, validTokens.clear()];
  };

  standIn.server = await startHttpsCallbackServer({
    ca,
    handler: (req, res) => {
      const fault = faults.findIndex((f) => f.match(req));
      if (fault >= 0) return faults.splice(fault, 1)[0]!.answer(res);
      if (req.path === '/token' && req.method === 'POST') return token(req, res);
      if (req.path === '/auth') return consent(req, res);
      const photo = standIn.photos.get(req.path);
      if (photo) return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer === undefined || !validTokens.has(bearer)) return apiError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      if (isPage(req)) return page(req, res);
      if (req.path === '/am/v1/accounts') return json(res, 200, { accounts: [{ name: 'accounts/1', accountName: 'Brightline Heating & Air', type: 'LOCATION_GROUP' }] });
      if (req.path === '/bi/v1/accounts/1/locations') {
        const others = [...standIn.more.keys()].map((name) => ({ name: name.slice('accounts/1/'.length), title: `Brightline ${name.slice(name.lastIndexOf('/') + 1)}` }));
        return json(res, 200, { locations: [{ name: 'locations/2', title: 'Brightline Heating & Air' }, ...others] });
      }
      apiError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    },
  });
  return standIn;
}

/** `n` reviews with text, one a minute from `start`, newest last. */
export function makeReviews(n: number, start = Date.parse('2026-03-01T09:00:00Z'), prefix = 'Rev'): GoogleReview[] {
  const stars = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    return {
      reviewId: `${prefix}${String(i).padStart(5, '0')}AbC_x-Z`,
      reviewer: { displayName: `Customer ${i} Smith` },
      starRating: stars[i % 5]!,
      comment: `Visit number ${i}: the technician was on time and explained the repair.`,
      createTime: at,
      updateTime: at,
    };
  });
}
