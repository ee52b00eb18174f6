/**
 * How `npm run verify` reads the site it checks (issue 40 item 2): every file through fetchBounded, with
 * its byte cap (core/log/log-bounds.ts), REQUEST_TIMEOUT_MS a request, and one deadline for the whole
 * run; redirects only within the site's origin. A file that cannot be read ends the run (exit 2).
 */
import { fetchBounded } from '../lib/bounded-fetch.ts';

export const REQUEST_TIMEOUT_MS = 20_000;
/** The whole run, by default: under two minutes, whatever the server does. `--deadline` changes it. */
export const RUN_DEADLINE_MS = 100_000;
/** `/reviews.json` of 100,000 reviews is about 85 MB. */
export const MAX_REVIEWS_JSON_BYTES = 128 * 1024 * 1024;

/** The log cannot be read at all: exit 2, saying why. */
export class Unreadable extends Error {}

export type SiteReader = {
  /** The file's bytes; undefined when the site answers 404 or 410. */
  get(url: string, maxBytes: number): Promise<Buffer | undefined>;
  /** The file's bytes; its absence ends the run. */
  require(url: string, maxBytes: number): Promise<Buffer>;
};

export function createSiteReader(deadlineMs: number = RUN_DEADLINE_MS): SiteReader {
  const signal = AbortSignal.timeout(deadlineMs);
  const get = async (url: string, maxBytes: number) => {
    const got = await fetchBounded(url, { maxBytes, timeoutMs: REQUEST_TIMEOUT_MS, signal });
    if (got.ok === false) throw new Unreadable(got.reason);
    return got.ok === 'absent' ? undefined : got.bytes;
  };
  return {
    get,
    async require(url, maxBytes) {
      const bytes = await get(url, maxBytes);
      if (bytes === undefined) throw new Unreadable(`${url} is not found (404)`);
      return bytes;
    },
  };
}
