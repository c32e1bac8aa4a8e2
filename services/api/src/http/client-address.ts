import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The client's address as the socket sees it (decision 0842), or null when there is no socket (requests made
 * in-process, as route tests do). X-Forwarded-For is not trusted: any client could set it.
 */
export function clientAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}
