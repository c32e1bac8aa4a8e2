import type { Context } from 'hono';

/**
 * Sets a header on the response the handler has already made (decision 1258), in place. Hono's `c.header` on a made
 * response makes a new Response from the old one's body stream; under @hono/node-server that turns an answer it
 * would write at once (its text or bytes, with their length) into a stream it reads chunk by chunk, a timer between
 * reads, so under load a ready answer waited a turn of the event loop behind other calls' work before its first byte
 * left. A response whose headers cannot change (one a fetch() returned) gets `c.header`.
 */
export function setMadeHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
