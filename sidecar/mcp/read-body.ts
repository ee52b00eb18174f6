/**
 * Reads a POSTed MCP body with the cheap refusals first (issue 31 item 8): a `Content-Length` over the
 * limit is refused before a byte is read, and the bytes are scanned as they arrive, so a body over the
 * size limit, or with an object wider than MAX_OBJECT_KEYS or nested deeper than MAX_DEPTH, is refused at
 * the chunk that crosses the line. The rest of such a body is read and dropped, never kept or parsed.
 * Four clients sending 60,000-key bodies used to cost a full `JSON.parse` each (and a walk over every
 * key), which tripled everyone else's latency.
 *
 * The scanner follows the JSON grammar only as far as it needs to (RFC 8259 §2: structural characters
 * outside strings, with `\` escapes inside them): it counts the name separators (`:`) directly inside
 * each object, which for valid JSON is its number of keys. Whether the body is valid JSON at all is left
 * to `JSON.parse` afterwards (json-rpc.ts).
 */
import type { IncomingMessage } from 'node:http';

/** Most bytes of one message. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Most keys one object of a message may have: tool arguments have about a dozen. */
export const MAX_OBJECT_KEYS = 100;
/** Deepest nesting of objects and arrays: MCP messages nest a handful of levels. */
export const MAX_DEPTH = 64;

export type BodyRead =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' }
  | { ok: false; reason: 'unsupported-encoding' }
  | { ok: false; reason: 'aborted' }
  /** Too wide or too deep: `message` says which; `prefix` is the start of the body, for its request id. */
  | { ok: false; reason: 'shape'; message: string; prefix: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Incremental width and depth check over the bytes of a JSON text, chunk by chunk. */
export function createShapeScanner() {
  let inString = false;
  let escaped = false;
  let depth = 0;
  // Per open container: -1 for an array, else the keys seen so far in that object.
  const keys = new Int32Array(MAX_DEPTH + 1);
  return {
    /** Scans one chunk; returns a problem in words, or undefined while the shape is within bounds. */
    scan(chunk: Uint8Array): string | undefined {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
          continue;
        }
        if (byte === QUOTE) inString = true;
        else if (byte === COLON) {
          if (depth > 0 && keys[depth]! >= 0 && ++keys[depth]! > MAX_OBJECT_KEYS) {
            return `an object in the message has more than ${MAX_OBJECT_KEYS} keys; at most ${MAX_OBJECT_KEYS} are accepted`;
          }
        } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
          if (++depth > MAX_DEPTH) return `the message is nested more than ${MAX_DEPTH} levels deep`;
          keys[depth] = byte === OPEN_OBJECT ? 0 : -1;
        } else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && depth > 0) depth -= 1;
      }
      return undefined;
    },
  };
}

/**
 * Reads the body of `req` as UTF-8 text, or says why not. A refused body is drained in the background
 * (its bytes dropped as they come) so the answer reaches the client on a connection that stays usable.
 */
export function readMcpBody(req: IncomingMessage): Promise<BodyRead> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') return drained(req, { ok: false, reason: 'unsupported-encoding' });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return drained(req, { ok: false, reason: 'too-large' });

  return new Promise((resolve) => {
    const scanner = createShapeScanner();
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      if (result.ok) resolve(result);
      else resolve(drained(req, result));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return finish({ ok: false, reason: 'too-large' });
      chunks.push(chunk);
      const problem = scanner.scan(chunk);
      if (problem !== undefined) {
        const prefix = Buffer.concat(chunks).toString('utf8', 0, Math.min(size, 4096));
        finish({ ok: false, reason: 'shape', message: problem, prefix });
      }
    };
    const onEnd = () => finish({ ok: true, text: Buffer.concat(chunks, size).toString('utf8') });
    const onError = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('aborted', onError);
  });
}

/** Drops the rest of the body as it arrives (no copy, no parse) and resolves with `result` at once. */
function drained(req: IncomingMessage, result: BodyRead): Promise<BodyRead> {
  req.on('error', () => {});
  req.resume();
  return Promise.resolve(result);
}

/**
 * The request id of a refused message, when its top-level object names it before its first nested
 * value (`{"jsonrpc":"2.0","id":7,"method":…,"params":{…}}`, as clients write them): the scan stopped
 * early, so an id after the params is not known.
 */
export function leadingRequestId(prefix: string): string | number | undefined {
  const match = /^\s*\{[^{}[\]"]*(?:"(?:[^"\\]|\\.)*"[^{}[\]"]*)*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(prefix);
  if (!match) return undefined;
  const id: unknown = JSON.parse(match[1]!);
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
}
