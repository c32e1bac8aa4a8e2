import type { Executor } from '@takt/db';
import { ApiError } from '../http/errors';
import {
  clearFailures,
  countFailuresSince,
  oldestFailureSince,
  recordFailure,
} from '../repositories/login-failures';

// Login throttling per account and per address (decision 0842): after too many failed logins within the
// window, further attempts answer 429 until the oldest failure leaves the window, without checking the
// password (so guessing gains nothing). A success clears the account's failures.

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed logins of one e-mail within the window. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Failed logins from one client address within the window (a shop's PCs may share one address). */
export const MAX_FAILURES_PER_ADDRESS = 20;

export interface LoginKeys {
  account: string;
  address: string | null;
}

export const loginKeys = (email: string, address: string | null): LoginKeys => ({
  account: `account:${email.trim().toLowerCase()}`,
  address: address ? `address:${address}` : null,
});

const tooMany = (retryAfterMs: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const wait = minutes === 1 ? 'a minute' : `${minutes} minutes`;
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', `Too many failed logins. Try again in ${wait}.`);
};

/** Throws 429 when the account or the address is over its limit. */
export async function assertNotThrottled(db: Executor, keys: LoginKeys, now: number): Promise<void> {
  const since = now - LOGIN_WINDOW_MS;
  const limits: Array<[string, number]> = [[keys.account, MAX_FAILURES_PER_ACCOUNT]];
  if (keys.address) limits.push([keys.address, MAX_FAILURES_PER_ADDRESS]);
  for (const [key, max] of limits) {
    if ((await countFailuresSince(db, key, since)) < max) continue;
    const oldest = (await oldestFailureSince(db, key, since)) ?? now;
    throw tooMany(oldest + LOGIN_WINDOW_MS - now);
  }
}

export async function noteFailedLogin(db: Executor, keys: LoginKeys, now: number): Promise<void> {
  const list = keys.address ? [keys.account, keys.address] : [keys.account];
  await recordFailure(db, list, now, now - LOGIN_WINDOW_MS);
}

export const noteGoodLogin = (db: Executor, keys: LoginKeys): Promise<void> =>
  clearFailures(db, keys.account);
