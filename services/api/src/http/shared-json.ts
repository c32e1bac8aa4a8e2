import type { Context } from 'hono';
import { answerGzip, answerJson } from '../services/report-shared';

/** Answers shorter than this go as they are: gzip's header and the work are not worth it. */
const GZIP_MIN_LENGTH = 1_024;

/**
 * c.json of a shared report answer (decision 1185): the same response, its body the JSON text the answer's size
 * was measured on, so it is serialized once. Decision 1248: to a caller that accepts gzip (every browser), the
 * text's gzip bytes, made once per answer off the event loop (a year's production answer is ~2 MB of JSON).
 */
export async function sharedJson(c: Context, answer: unknown): Promise<Response> {
  const text = answerJson(answer);
  const headers = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  if (text.length >= GZIP_MIN_LENGTH && acceptsGzip(c.req.header('accept-encoding')))
    return c.body(await answerGzip(answer, text), 200, { ...headers, 'Content-Encoding': 'gzip' });
  return c.body(text, 200, headers);
}

/** Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3: by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let named: boolean | null = null;
  let any: boolean | null = null;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') named = accepted;
    else if (coding === '*') any = accepted;
  }
  return named ?? any ?? false;
}

/**
 * Replaces the route's response after the fact (the anonymizer, a link token's refusal). Hono's `c.res` setter
 * copies the former response's headers onto the new one; a gzipped shared answer's encoding (decision 1248) is not
 * the new body's, so it goes.
 */
export function replaceResponse(c: Context, res: Response): void {
  c.res = res;
  c.res.headers.delete('content-encoding');
}
