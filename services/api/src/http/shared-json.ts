import type { Context } from 'hono';
import { answerJson } from '../services/report-shared';

/**
 * c.json of a shared report answer (decision 1185): the same response, its body the JSON text the answer's size
 * was measured on when this is the first response of its computation, so it is serialized once.
 */
export const sharedJson = (c: Context, answer: unknown): Response =>
  c.body(answerJson(answer), 200, { 'Content-Type': 'application/json' });
