import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { bearerToken } from '../auth/tokens';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { enforceRate } from '../http/rate-limit';
import { GATEWAY_PUSH_RATE, PUSH_RATE_TEXT } from '../services/push-rates';
import {
  authenticateGateway,
  checkPushBatch,
  joinGateway,
  pushProblems,
  storePush,
} from '../services/gateway-push';

// ---------------------------------------------------------------------------------------------
// /api/gateway-push: the edge's own calls, authenticated by gateway token (services/gateway-push.ts)

/** Header alternative to the body's `bufferedRecords` (the body wins when both are sent). */
const BUFFERED_RECORDS_HEADER = 'X-Buffered-Records';

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'BAD_JSON', 'The request body must be valid JSON.');
  }
}

function bufferedFromHeader(c: Context<AppEnv>): number | null {
  const raw = c.req.header(BUFFERED_RECORDS_HEADER);
  if (raw === undefined) return null;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw pushProblems([{ path: BUFFERED_RECORDS_HEADER, message: 'must be a non-negative integer' }]);
  return Number(raw.trim());
}

export const joinBody = z.object({
  supervisorVersion: z.string().trim().min(1).max(64).optional(),
  pusherVersion: z.string().trim().min(1).max(64).optional(),
});

const gatewayOf = (c: Context<AppEnv>) =>
  authenticateGateway(c.var.deps.db, bearerToken(c.req.header('authorization')));

// The body limit (32 MB, "The push is too large; send fewer records.") is the app's, in http/body-limits.ts.
export const gatewayPushRoutes = new Hono<AppEnv>()
  // A batch of SHDR records `{ gatewayId, records: [{ seq, machineRef, line }], bufferedRecords? }`; the
  // answer acknowledges the highest stored sequence (ARCHITECTURE.md "Ingest contract").
  .post('/', async (c) => {
    const ingest = c.var.deps.ingest;
    const caller = await gatewayOf(c);
    // Counted per gateway before the body is read (decision 0991): 429 with Retry-After over the limit.
    const { db, now } = c.var.deps;
    await enforceRate(db, GATEWAY_PUSH_RATE, caller.gateway.id, now(), 'TOO_MANY_REQUESTS', PUSH_RATE_TEXT);
    const batch = checkPushBatch(ingest, caller, await readJson(c));
    const buffered = batch.bufferedRecords ?? bufferedFromHeader(c);
    const { dialect } = c.var.deps;
    const { observationsStored: onStored } = c.var.metrics.ingest;
    const onTimeRefused = c.var.metrics.timesRefused;
    return c.json(
      await storePush({ db, dialect, ingest, onStored, onTimeRefused }, caller, batch, buffered, now()),
    );
  })
  // The supervisor's join (reports-admin §2 "Supervisor Last Join"): reports versions, learns its config.
  .post('/join', async (c) => {
    const { gateway } = await gatewayOf(c);
    const body = joinBody.safeParse(await readJson(c));
    if (!body.success)
      throw pushProblems(body.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    return c.json(await joinGateway(c.var.deps.db, gateway, body.data, c.var.deps.now()));
  });
