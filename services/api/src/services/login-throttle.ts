import type { Executor } from '@takt/db';
import { TooManyRequests, giveBackHit, rateLimit, resetHits, takeHit } from '../http/rate-limit';
import type { RateLimit } from '../http/rate-limit';
import { findUserForLogin, normalizeEmail } from '../repositories/users';
import type { User } from '../repositories/users';

// Login throttling (decision 0988, replacing 0842's counting): every attempt takes a hit, atomically, BEFORE the
// password is checked (http/rate-limit.ts, decision 0987), so of 200 parallel guesses at most the limit are
// checked; the rest answer 429 with Retry-After. The hard limit is per account AND client address, so a
// stranger's failures from elsewhere never lock the owner out; per address alone a higher limit stops spraying
// one password over many accounts, and per account alone a much higher ceiling stops guessing spread over
// many addresses. A good login clears its pair and gives its hit back to the address and the account.

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed logins of one e-mail from one client address within the window. */
export const MAX_FAILURES_PER_PAIR = 5;
/** Failed logins from one client address within the window, over any accounts (a shop's PCs may share one). */
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Failed logins of one e-mail from all addresses within the window: a ceiling for guessing from many. */
export const MAX_FAILURES_PER_ACCOUNT = 100;

const PAIR = rateLimit('login-pair', MAX_FAILURES_PER_PAIR, LOGIN_WINDOW_MS);
const ADDRESS = rateLimit('login-address', MAX_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS);
const ACCOUNT = rateLimit('login-account', MAX_FAILURES_PER_ACCOUNT, LOGIN_WINDOW_MS);

export interface LoginKeys {
  /** The e-mail, trimmed and in lower case. */
  account: string;
  address: string | null;
}

export const loginKeys = (email: string, address: string | null): LoginKeys => ({
  account: normalizeEmail(email),
  address,
});

/** The counters one attempt takes a hit from, in the order they are taken. */
const countersOf = (keys: LoginKeys): Array<[RateLimit, string]> => {
  const list: Array<[RateLimit, string]> = [[PAIR, `${keys.account}|${keys.address ?? '-'}`]];
  if (keys.address) list.push([ADDRESS, keys.address]);
  list.push([ACCOUNT, keys.account]);
  return list;
};

const tooMany = (retryAfterS: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
  const wait = minutes === 1 ? 'a minute' : `${minutes} minutes`;
  return new TooManyRequests(
    retryAfterS,
    'TOO_MANY_ATTEMPTS',
    `Too many failed logins. Try again in ${wait}.`,
  );
};

/**
 * Takes this attempt's hit from each counter; throws 429 (Retry-After) when one is at its limit, giving back the
 * hits already taken, so a refused attempt counts nowhere. Call before checking the password or code; an
 * attempt let through counts as failed until `noteGoodLogin`. Mutates rate_limits.
 */
export async function takeLoginAttempt(db: Executor, keys: LoginKeys, now: number): Promise<void> {
  const taken: Array<[RateLimit, string]> = [];
  for (const [rule, who] of countersOf(keys)) {
    const decision = await takeHit(db, rule, who, now);
    if (!decision.allowed) {
      for (const [r, w] of taken) await giveBackHit(db, r, w);
      throw tooMany(decision.retryAfterS);
    }
    taken.push([rule, who]);
  }
}

/** A good login: its pair starts afresh, and the address and the account get this attempt's hit back. */
export async function noteGoodLogin(db: Executor, keys: LoginKeys): Promise<void> {
  const [[pairRule, pair], ...rest] = countersOf(keys) as [
    [RateLimit, string],
    ...Array<[RateLimit, string]>,
  ];
  await resetHits(db, pairRule, pair);
  for (const [rule, who] of rest) await giveBackHit(db, rule, who);
}

/**
 * The user a form may e-mail at this address (sign-in codes, password links), or null. The e-mails are
 * counted under a key of their own (`mail-<kind>:<e-mail>`), so nobody can fill a mailbox through the form:
 * once `max` were asked for within the window, null. Counted whether or not the address has an account; a
 * locked account gets nothing either.
 */
export async function mailableUser(
  db: Executor,
  kind: string,
  email: string,
  max: number,
  now: number,
): Promise<User | null> {
  const decision = await takeHit(
    db,
    rateLimit(`mail-${kind}`, max, LOGIN_WINDOW_MS),
    normalizeEmail(email),
    now,
  );
  if (!decision.allowed) return null;
  const found = await findUserForLogin(db, email);
  return found && !found.user.locked ? found.user : null;
}
