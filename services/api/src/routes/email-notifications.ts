import { Hono } from 'hono';
import { emailPreferencesUpdateSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { jsonBody } from '../http/validate';
import { outboxTransport } from '../mail/transport';
import { emailPreferences, sendTestEmail, updateEmailPreferences } from '../services/email-notifications';
import { inTransaction } from './live-ctx';
import type { Context } from 'hono';

const sendTest = async (c: Context<AppEnv>) => {
  const result = await inTransaction(c, (ctx) => sendTestEmail(ctx, c.var.deps.mail ?? outboxTransport));
  // live-operations §8: the failure text; the attempt itself is kept in the outbox (committed above).
  if (!result.sent) throw new ApiError(502, 'MAIL_FAILED', result.message);
  return c.json({ message: result.message });
};

/**
 * E-mail preferences of the calling user (live-operations §7; reports-admin §2 Administration).
 * GET /api/emailnotifications → `{ receiveDowntimeEmail, receiveUtilizationEmail, receiveBenchmarkingEmail }`
 * PUT /api/emailnotifications (the three booleans) → the same plus `message` "Your preferences have been updated."
 * PUT /api/emailnotifications/sendemail/ → `{ message }` "Sent. You should get it within the next 10 minutes.",
 *   or 502 MAIL_FAILED "Something went wrong. Please try again."
 * Users only: a tablet caller has no address (403).
 */
export const emailNotificationRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => emailPreferences(ctx))))
  .put('/', async (c) => {
    const body = await jsonBody(c, emailPreferencesUpdateSchema);
    return c.json(await inTransaction(c, (ctx) => updateEmailPreferences(ctx, body)));
  })
  .put('/sendemail', sendTest)
  .put('/sendemail/', sendTest);
