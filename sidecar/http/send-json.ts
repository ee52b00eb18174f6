/** A live JSON answer: strong ETag from its bytes, so clients can revalidate searches too. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { READ_HEADERS } from '../../core/publishing/headers.ts';
import { strongEtag } from '../../core/publishing/manifest.ts';
import { sendRepresentation } from './send-representation.ts';

/** `json`: the text, or its bytes in UTF-8. */
export function sendJson(req: IncomingMessage, res: ServerResponse, json: string | Buffer, lastModifiedMs: number): void {
  const body = typeof json === 'string' ? Buffer.from(json) : json;
  sendRepresentation(req, res, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=60',
      ...READ_HEADERS,
    },
    lastModifiedMs,
    identity: { body, etag: strongEtag(body) },
    compress: true,
  });
}
