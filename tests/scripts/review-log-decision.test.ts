/**
 * The review log's decision as a table (issue 41 items 4 and 8): what the build found (key, last log here,
 * log at PUBLIC_URL, retired keys) against what it does: continue, start a log with a new key, or refuse
 * naming a command that works from there. A new key only where no log can exist.
 */
import { describe, expect, it } from 'vitest';
import { formatVerifierKey, generateSigner, type OpenedLog } from '../../core/log/index.ts';
import { decideReviewLog, isDevelopmentAddress, type ReviewLogFacts } from '../../scripts/lib/review-log-decision.ts';

const ORIGIN = 'reviews.acme.com/log';
const owner = generateSigner(ORIGIN);
const other = generateSigner(ORIGIN);
const logBy = (signer: typeof owner) => ({ verifier: signer }) as unknown as OpenedLog;
const ownerLog = logBy(owner);

type Facts = Pick<ReviewLogFacts, 'key' | 'local' | 'remote'> & Partial<ReviewLogFacts>;
function decide(facts: Facts) {
  return decideReviewLog({
    origin: ORIGIN,
    publicUrl: 'https://reviews.acme.com',
    demo: false,
    newLog: false,
    keyFile: '.data/log-keys/reviews.acme.com%2Flog',
    remoteBase: 'https://reviews.acme.com/log',
    retired: [],
    ...facts,
  });
}

const key = { state: 'found', signer: owner, source: 'LOG_SIGNING_KEY' } as const;
const noKey = { state: 'absent' } as const;
const here = { state: 'found', found: { log: ownerLog, demo: false } } as const;
const none = { state: 'absent' } as const;
const notAsked = { state: 'not-asked' } as const;
const unreachable = { state: 'unreachable', reason: 'getaddrinfo ENOTFOUND' } as const;

describe('decideReviewLog', () => {
  it.each<[string, Facts, { previous: OpenedLog | undefined; signer: 'owner' | 'new' } | RegExp]>([
    ['key and the last log here: continues', { key, local: here, remote: notAsked }, { previous: ownerLog, signer: 'owner' }],
    ['key, no log here, the log at PUBLIC_URL: continues it', { key, local: none, remote: { state: 'found', found: { log: ownerLog, demo: false } } }, { previous: ownerLog, signer: 'owner' }],
    ['no key, PUBLIC_URL answers without a log: a new log', { key: noKey, local: none, remote: none }, { previous: undefined, signer: 'new' }],
    ['no key, PUBLIC_URL still serves the demo log: a new log', { key: noKey, local: none, remote: { state: 'found', found: { log: logBy(other), demo: true } } }, { previous: undefined, signer: 'new' }],
    ['no key, unreachable, a development address: a new log', { key: noKey, local: none, remote: unreachable, publicUrl: 'http://localhost:4321' }, { previous: undefined, signer: 'new' }],
    ['no key, unreachable, --new-log: a new log', { key: noKey, local: none, remote: unreachable, newLog: true }, { previous: undefined, signer: 'new' }],
    ['no key, unreachable, a public address: refuses', { key: noKey, local: none, remote: unreachable }, /cannot tell whether a log was published there.*npm run restore.*npm run build -- --new-log/],
    ['key, no log here, unreachable: refuses', { key, local: none, remote: unreachable }, /not the last published log.*npm run restore/],
    ['LOG_SIGNING_KEY, no log here, unreachable: refuses, naming --new-log', { key: { ...key, source: 'LOG_SIGNING_KEY' }, local: none, remote: unreachable }, /not the last published log.*npm run restore.*npm run build -- --new-log/],
    ['key, no log here, unreachable, --new-log: a new log under that key', { key, local: none, remote: unreachable, newLog: true }, { previous: undefined, signer: 'owner' }],
    ['a log here, no key: refuses', { key: noKey, local: here, remote: notAsked }, /does not have its key.*npm run restore/],
    ['a log at PUBLIC_URL, no key: refuses', { key: noKey, local: none, remote: { state: 'found', found: { log: ownerLog, demo: false } } }, /does not have its key.*npm run restore/],
    ['a damaged log here: refuses', { key, local: { state: 'damaged', dir: 'dist/log', reason: 'bad tile' }, remote: notAsked }, /cannot be continued: bad tile.*npm run restore/],
    ['a damaged log at PUBLIC_URL: refuses', { key: noKey, local: none, remote: { state: 'damaged', reason: 'bad signature' } }, /cannot continue: bad signature.*npm run restore/],
    ['an unreadable key: refuses', { key: { state: 'unreadable', source: 'LOG_SIGNING_KEY', reason: 'not a key' }, local: here, remote: notAsked }, /cannot be read: not a key.*npm run restore/],
    ['a key of another address: refuses', { key: { state: 'other-origin', source: 'LOG_SIGNING_KEY', name: 'x.example/log' }, local: here, remote: notAsked }, /is for x\.example\/log.*Set PUBLIC_URL/],
    ['another key than the log\'s: refuses', { key: { ...key, signer: other }, local: here, remote: notAsked }, /Use the log's own key; to rotate/],
    ['another key, the log\'s listed as retired: continues under the new key', { key: { ...key, signer: other }, local: here, remote: notAsked, retired: [formatVerifierKey(owner)] }, { previous: ownerLog, signer: 'owner' }],
  ])('%s', (_name, facts, expected) => {
    const decision = decide(facts);
    if (expected instanceof RegExp) {
      expect(decision.ok).toBe(false);
      if (!decision.ok) expect(decision.message).toMatch(expected);
      return;
    }
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.previous).toBe(expected.previous);
    expect(decision.signer === undefined ? 'new' : 'owner').toBe(expected.signer);
  });

  it.each([
    ['http://localhost:4321', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:4321', true],
    ['https://reviews.example.com', true],
    ['https://a.example', true],
    ['https://shop.test/reviews', true],
    ['https://reviews.acme.com', false],
    ['https://example.co.uk', false],
  ])('isDevelopmentAddress(%s) is %s', (url, expected) => {
    expect(isDevelopmentAddress(url)).toBe(expected);
  });
});
