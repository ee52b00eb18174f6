/**
 * The check page's script (/log/check/?review=<id>): checks one review in the browser, with Web Crypto,
 * from static files only, so it works on any CDN copy of the build: the review's tlog-proof
 * (`../proof/<id>.tlog-proof`), the log's key (`../vkey`) and the site's C2SP tlog-policy (`../policy`:
 * the witnesses it asks and their quorum), all relative to the page. The checks are
 * core/log/proof-check.ts's, the same `npm run verify --proof --policy` makes; this file only says the
 * result in words.
 */
import { parseTlogPolicy, policyTrust } from '../../core/log/policy.ts';
import { checkReviewProof, parseVerifierKeyText, type ProofCheck, type ProofTrust, type VerifierKey } from '../../core/log/proof-check.ts';
import { formatDate } from '../../core/pages/format.ts';
import { plural } from '../../core/text/text-rules.ts';

const REVIEW_ID = /^[a-z0-9-]{1,200}$/;
const TIMEOUT_MS = 10_000;

const root = document.querySelector<HTMLElement>('[data-log-check]');
const verdict = root?.querySelector<HTMLElement>('[data-verdict]');
const details = root?.querySelector<HTMLElement>('[data-check-details]');
const logged = root?.querySelector<HTMLElement>('[data-check-review]');

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
    line(`${'★'.repeat(rating)}${'☆'.repeat(Math.max(0, 5 - rating))} ${rating} out of 5${typeof review.title === 'string' ? ` · ${review.title}` : ''}`),
    line(String(review.text ?? '')),
    line(`${String(review.author ?? '')} · ${formatDate(String(review.date ?? ''))}`, 'meta'),
  ];
  const reply = review.response as { text?: unknown } | null | undefined;
  if (reply && typeof reply.text === 'string') parts.push(line(`Reply from the owner: ${reply.text}`, 'meta'));
  for (const p of parts) p.dir = 'auto';
  logged.replaceChildren(...parts);
  logged.hidden = false;
}

function describe(result: Extract<ProofCheck, { ok: true }>, key: string): [string, string[]] {
  const when = formatDate(result.entry.time.slice(0, 10));
  const names = result.witnesses.map((w) => w.name);
  const witnessed = names.length === 0
    ? ' No independent witness confirms this log yet, so this shows what the business published, not that it showed everyone the same.'
    : ` and confirmed by ${plural(names.length, 'independent witness', { many: 'independent witnesses' })}: ${names.join(', ')}.`;
  const sentence = `This review is as it was logged on ${when}, entry ${result.index}, signed by the business's key${names.length === 0 ? '.' : ''}${witnessed}`;
  return [sentence, [
    `Its words, rating, date, author and reply are exactly those of entry ${result.index} of the log.`,
    `That entry is in the log of ${result.size} entries the business signed (an inclusion proof).`,
    `The signature is by the key this site serves, ${key}. Compare it with the one the owner publishes elsewhere.`,
  ]];
}

/** The site's policy (`../policy`): its witnesses and quorum over the served key; none when it has no policy. */
function siteTrust(log: VerifierKey, policy: { status: number; text: string }): ProofTrust | string {
  if (policy.status === 404) return { log, witnesses: [], quorum: () => true };
  if (policy.status !== 200) return `The site's witness policy could not be loaded (the site answered ${policy.status}). Try again later.`;
  const parsed = parseTlogPolicy(policy.text);
  if (!parsed.ok) return `The site's witness policy cannot be read: ${parsed.problems[0]}.`;
  const trust = policyTrust(parsed.value, log.name);
  if (trust.log.text !== log.text) return 'The site\'s witness policy names another key for its log than the one it serves.';
  return trust;
}

async function check(id: string): Promise<void> {
  const [proof, vkey, policy] = await Promise.all([fetchText(`../proof/${id}.tlog-proof`), fetchText('../vkey'), fetchText('../policy')]);
  if (proof.status === 404) return say('failed', `This site has no proof for a review "${id}": it is not a published review, or it has been withdrawn.`);
  if (proof.status !== 200 || vkey.status !== 200) return say('failed', `The proof could not be loaded (the site answered ${proof.status === 200 ? vkey.status : proof.status}). Try again later.`);
  const key = parseVerifierKeyText(vkey.text, 0x01);
  if (!key.ok) return say('failed', `The log's key this site serves cannot be read: ${key.reason}.`);
  const trust = siteTrust(key.value, policy);
  if (typeof trust === 'string') return say('failed', trust);
  const result = await checkReviewProof(proof.text, trust);
  if (!result.ok) return say('failed', `This review could not be confirmed. ${result.reason}`, result.entry ? [`The log's entry ${result.index} says: a ${result.entry.rating}-star review of ${formatDate(result.entry.date)}, logged on ${formatDate(result.entry.time.slice(0, 10))}.`] : []);
  showReview(result.review);
  say('verified', ...describe(result, key.value.text));
}

const id = new URLSearchParams(location.search).get('review');
if (root && id !== null) {
  if (!REVIEW_ID.test(id)) say('failed', 'That is not a review id: ids are lowercase letters, digits and hyphens.');
  else {
    check(id).catch((error: Error) => say('failed', `This browser could not finish the check (${error.message}). Try a current browser, or the command line check below.`));
  }
}
