import type { Executor } from '@takt/db';
import { ApiError } from '../http/errors';
import {
  clearFailures,
  countFailuresSince,
  oldestFailureSince,
  recordFailure,
} from '../repositories/login-failures';
import { findUserForLogin, normalizeEmail } from '../repositories/users';
import type { User } from '../repositories/users';

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

/**
 * The user a form may e-mail at this address (sign-in codes, password links), or null. The e-mails are
 * counted in the same table under a key of their own, so nobody can fill a mailbox through the form: once
 * `max` were sent within the window, null. Counted whether or not the address has an account; a locked
 * account gets nothing either.
 */
export async function mailableUser(
  db: Executor,
  kind: string,
  email: string,
  max: number,
  now: number,
): Promise<User | null> {
  const key = `${kind}:${normalizeEmail(email)}`;
  const since = now - LOGIN_WINDOW_MS;
  if ((await countFailuresSince(db, key, since)) >= max) return null;
  await recordFailure(db, [key], now, since);
  const found = await findUserForLogin(db, email);
  return found && !found.user.locked ? found.user : null;
}
