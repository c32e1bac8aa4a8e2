import { rateLimit } from '../http/rate-limit';

// How often a tablet (or user) may sync and a gateway may push (decision 0991), through the shared rate limiter
// (decision 0987). Generous: a tablet back from a day offline flushes its outbox in batches of 200 commands one
// after another, a gateway its buffer in batches of up to 10,000 records; both take under a minute for
// backlogs far beyond a shift's. What they stop is a loop or a script hammering the database.

/** POST /api/sync per tablet, user or API key: 120 batches a minute (24,000 commands). */
export const SYNC_RATE = rateLimit('sync', 120, 60_000);
/** POST /api/gateway-push per gateway: 600 pushes a minute (up to 6 million records). */
export const GATEWAY_PUSH_RATE = rateLimit('gateway-push', 600, 60_000);

export const SYNC_RATE_TEXT = 'Too many sync requests from this device. Try again shortly.';
export const PUSH_RATE_TEXT = 'Too many pushes from this gateway. Try again shortly.';
