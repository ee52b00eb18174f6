/**
 * Stateless MCP session ids. `initialize` mints `<nonce>.<mac>`: 16 random bytes and an HMAC-SHA256 of
 * them under the configured secret, both base64url (only visible ASCII, as MCP 2025-06-18 "Session
 * Management" requires). Any sidecar instance with the same secret verifies an id without a session
 * table, so memory does not grow with clients and a load balancer may send any request anywhere.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type SessionIds = {
  issue(): string;
  /** True only for an id minted under this secret. */
  verify(id: string): boolean;
};

const NONCE_BYTES = 16;
const ID_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function createSessionIds(secret: string): SessionIds {
  const sign = (nonce: string) => createHmac('sha256', secret).update(`mcp-session.v1.${nonce}`).digest();
  return {
    issue() {
      const nonce = randomBytes(NONCE_BYTES).toString('base64url');
      return `${nonce}.${sign(nonce).toString('base64url')}`;
    },
    verify(id) {
      const match = ID_PATTERN.exec(id);
      if (match === null) return false;
      // Compare the text, not decoded bytes: the last base64url character has two unused bits, so
      // decoding would accept four spellings of one MAC.
      const given = Buffer.from(match[2]!);
      const expected = Buffer.from(sign(match[1]!).toString('base64url'));
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
