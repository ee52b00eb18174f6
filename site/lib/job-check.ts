/**
 * The receipt page's script (/log/job/?code=<code>): finds a customer's job in the public log from the
 * receipt code alone, in the browser (core/log/job-lookup.ts `checkReceipt`), from static files only: the
 * look-up shard `../jobs/<xx>.json` beside the page. Nothing about the customer is sent or shown; this file
 * only says the result in words, the site's (the page's `data-words`: site/lib/check-words.ts), on the element
 * that carries `data-verdict` ("found" or "not-found").
 */
import { checkReceipt, type ReceiptCheck } from '../../core/log/job-lookup.ts';
import { sha256 } from '../../core/log/sha256.ts';
import { fill } from '../../core/i18n/fill.ts';
import { readCheckWords, type JobCheckWords } from './check-words.ts';

const TIMEOUT_MS = 10_000;

const root = document.querySelector<HTMLElement>('[data-job-check]');
const verdict = root?.querySelector<HTMLElement>('[data-verdict]');
const details = root?.querySelector<HTMLElement>('[data-check-details]');
const input = document.querySelector<HTMLInputElement>('#receipt-code');
const { words, formatDate } = readCheckWords<JobCheckWords>(root);
const business = root?.dataset.business ?? words.theBusiness;
const services = JSON.parse(root?.dataset.services ?? '{}') as Record<string, string>;

function say(state: 'found' | 'not-found', sentence: string, points: readonly string[] = []): void {
  if (!verdict || !details) return;
  verdict.dataset.verdict = state;
  verdict.textContent = sentence;
  details.replaceChildren(...points.map((p) => Object.assign(document.createElement('li'), { textContent: p })));
}

async function fetchShard(shard: string): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(`../jobs/${shard}.json`, location.href), { signal: AbortSignal.timeout(TIMEOUT_MS), cache: 'no-cache' });
  return { status: response.status, text: response.ok ? await response.text() : '' };
}

/** `2026-W10` → "week 10 of 2026". */
const formatWeek = (week: string) => fill(words.week, { week: Number(week.slice(6)), year: week.slice(0, 4) });

function describe(result: ReceiptCheck): void {
  if (result.verdict === 'found') {
    const { record, completed } = result;
    const service = services[record.service] ?? record.service;
    const area = record.area === null ? '' : fill(words.area, { area: record.area });
    return say('found', fill(words.found, { date: formatDate(record.time.slice(0, 10)), entry: record.entry, business, service, week: formatWeek(record.week), area }), [
      fill(words.matches, { date: formatDate(completed) }),
      words.holds,
    ]);
  }
  switch (result.reason) {
    case 'mistyped':
      return say('not-found', fill(words.mistyped, { detail: result.detail }));
    case 'absent':
      return say('not-found', fill(words.absent, { business }));
    case 'mismatch':
      return say('not-found', words.mismatch);
    case 'unavailable':
      return say('not-found', fill(words.unavailable, { status: result.status }));
  }
}

const code = new URLSearchParams(location.search).get('code');
if (root && code !== null) {
  if (input) input.value = code;
  checkReceipt(code, fetchShard, sha256).then(describe, (error: Error) => say('not-found', fill(words.browserFailed, { error: error.message })));
}
