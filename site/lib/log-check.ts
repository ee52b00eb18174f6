/**
 * The check page's script (/log/check/?review=<id>): checks one review in the browser, with Web Crypto,
 * from static files only, so it works on any CDN copy of the build: the review's tlog-proof
 * (`../proof/<id>.tlog-proof`), the log's key (`../vkey`) and the site's C2SP tlog-policy (`../policy`:
 * the witnesses it asks and their quorum), all relative to the page. The checks are
 * core/log/proof-check.ts's, the same `npm run verify --proof --policy` makes; this file only says the
 * result in words, the site's (the page's `data-words`: site/lib/check-words.ts).
 */
import { parseTlogPolicy, policyTrust } from '../../core/log/policy.ts';
import { checkReviewProof, parseVerifierKeyText, type LoggedEntry, type ProofCheck, type ProofTrust, type VerifierKey } from '../../core/log/proof-check.ts';
import { choosePlural, fill } from '../../core/i18n/fill.ts';
import { readCheckWords, type LogCheckWords } from './check-words.ts';

const REVIEW_ID = /^[a-z0-9-]{1,200}$/;
const TIMEOUT_MS = 10_000;

const root = document.querySelector<HTMLElement>('[data-log-check]');
const verdict = root?.querySelector<HTMLElement>('[data-verdict]');
const details = root?.querySelector<HTMLElement>('[data-check-details]');
const logged = root?.querySelector<HTMLElement>('[data-check-review]');
const { words, formatDate } = readCheckWords<LogCheckWords>(root);

function say(state: 'verified' | 'failed', sentence: string, points: readonly string[] = []): void {
  if (!verdict || !details) return;
  verdict.dataset.verdict = state;
  // When the verdict came, from the navigation's start: what `npm run bench -- check-page` holds to 2 s.
  performance.mark('log-check-verdict');
  verdict.textContent = sentence;
  details.replaceChildren(...points.map((p) => Object.assign(document.createElement('li'), { textContent: p })));
}

async function fetchText(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(path, location.href), { signal: AbortSignal.timeout(TIMEOUT_MS), cache: 'no-cache' });
  return { status: response.status, text: response.ok ? await response.text() : '' };
}

function showReview(review: Record<string, unknown>): void {
  if (!logged) return;
  const line = (text: string, className?: string) => Object.assign(document.createElement('p'), { textContent: text, ...(className && { className }) });
  const rating = Number(review.rating);
  const parts = [
    line(`${fill(words.ratingLine, { stars: `${'★'.repeat(rating)}${'☆'.repeat(Math.max(0, 5 - rating))}`, rating })}${typeof review.title === 'string' ? ` · ${review.title}` : ''}`),
    line(String(review.text ?? '')),
    line(`${String(review.author ?? '')} · ${formatDate(String(review.date ?? ''))}`, 'meta'),
  ];
  const reply = review.response as { text?: unknown } | null | undefined;
  if (reply && typeof reply.text === 'string') parts.push(line(fill(words.reply, { text: reply.text }), 'meta'));
  for (const p of parts) p.dir = 'auto';
  logged.replaceChildren(...parts);
  logged.hidden = false;
}

function describe(result: Extract<ProofCheck, { ok: true }>, key: string): [string, string[]] {
  const when = formatDate(result.entry.time.slice(0, 10));
  const names = result.witnesses.map((w) => w.name);
  const witnessed = names.length === 0 ? words.noWitness : fill(choosePlural(words.witnessed, names.length), { count: names.length, names: names.join(', ') });
  const sentence = fill(names.length === 0 ? words.verified : words.verifiedWitnessed, { date: when, entry: result.index, witnessed });
  return [sentence, [...describeChange(result.entry, result.index, when), fill(words.exact, { entry: result.index }), fill(words.included, { size: result.size }), fill(words.signed, { key })]];
}

/** An update entry (core/log/entry.ts): the review was changed after it was first published, and how; the rating it replaced. */
function describeChange(entry: LoggedEntry, index: number, when: string): string[] {
  if (entry.action !== 'update') return [];
  const kind = entry.change === 'correction' && entry.reason !== undefined ? `correction:${entry.reason}` : (entry.change ?? '');
  const how = words.how[kind] ?? words.how[entry.change ?? ''] ?? words.how['']!;
  const changed = fill(words.changed, { entry: index, time: when, how });
  return entry.previous_rating === undefined ? [changed] : [changed, fill(words.ratingChanged, { before: entry.previous_rating, after: entry.rating })];
}

/** The site's policy (`../policy`): its witnesses and quorum over the served key; none when it has no policy. */
function siteTrust(log: VerifierKey, policy: { status: number; text: string }): ProofTrust | string {
  if (policy.status === 404) return { log, witnesses: [], quorum: () => true };
  if (policy.status !== 200) return fill(words.policyUnavailable, { status: policy.status });
  const parsed = parseTlogPolicy(policy.text);
  if (!parsed.ok) return fill(words.policyUnreadable, { problem: parsed.problems[0] ?? '' });
  const trust = policyTrust(parsed.value, log.name);
  if (trust.log.text !== log.text) return words.policyOtherKey;
  return trust;
}

async function check(id: string): Promise<void> {
  const [proof, vkey, policy] = await Promise.all([fetchText(`../proof/${id}.tlog-proof`), fetchText('../vkey'), fetchText('../policy')]);
  if (proof.status === 404) return say('failed', fill(words.noProof, { id }));
  if (proof.status !== 200 || vkey.status !== 200) return say('failed', fill(words.proofUnavailable, { status: proof.status === 200 ? vkey.status : proof.status }));
  const key = parseVerifierKeyText(vkey.text, 0x01);
  if (!key.ok) return say('failed', fill(words.keyUnreadable, { reason: key.reason }));
  const trust = siteTrust(key.value, policy);
  if (typeof trust === 'string') return say('failed', trust);
  const result = await checkReviewProof(proof.text, trust);
  if (!result.ok) {
    const says = result.entry ? [fill(words.entrySays, { entry: String(result.index), rating: result.entry.rating, date: formatDate(result.entry.date), time: formatDate(result.entry.time.slice(0, 10)) })] : [];
    return say('failed', fill(words.notConfirmed, { reason: result.reason }), says);
  }
  showReview(result.review);
  say('verified', ...describe(result, key.value.text));
}

const id = new URLSearchParams(location.search).get('review');
if (root && id !== null) {
  if (!REVIEW_ID.test(id)) say('failed', words.notAnId);
  else {
    check(id).catch((error: Error) => say('failed', fill(words.browserFailed, { error: error.message })));
  }
}
