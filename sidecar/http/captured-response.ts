/**
 * A stand-in for a ServerResponse that keeps what is written to it, so that a page rendered by the
 * Astro adapter (which writes straight to a Node response) can then be sent like every other answer:
 * with an ETag, conditional requests and compression (send-representation.ts). It implements what the
 * adapter's `writeResponse` uses: writeHead, write, end, destroy, the `close`/`finish` events and `req`.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

export class CapturedResponse extends EventEmitter {
  readonly req: IncomingMessage;
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private settle!: (error?: unknown) => void;
  /** Resolves when the page has been written whole; rejects if its writer gave up. */
  readonly finished: Promise<void>;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.finished = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
  }

  writeHead(status: number, headers: OutgoingHttpHeaders = {}): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, callback?: () => void): boolean {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    callback?.();
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined) this.write(chunk);
    this.headersSent = true;
    this.settle();
    this.emit('finish');
    return this;
  }

  destroy(error?: unknown): this {
    this.settle(error ?? new Error('the page was not written whole'));
    this.emit('close');
    return this;
  }

  body(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
