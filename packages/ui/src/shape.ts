import { MACHINE_STATES, ROLES } from '@takt/domain';
import type { DashboardMachine, DashboardResponse, LoginRequest, Me } from '@takt/domain';

// Small hand-written checks for the answers the apps read before their first paint. zod and the domain's
// schemas stay out of the floor app's first chunk (initial JS ≤ 150 KB gzip); the API
// validates with the domain's zod schemas, these only guard the client against a malformed or foreign answer.

/** An answer that does not have the expected shape; `path` names the first field that failed. */
export class ShapeError extends Error {
  constructor(readonly path: string) {
    super(`Unexpected answer: ${path || 'value'} has the wrong shape`);
    this.name = 'ShapeError';
  }
}

export type Check<T> = (value: unknown, path: string) => T;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const string: Check<string> = (v, p) => {
  if (typeof v !== 'string') throw new ShapeError(p);
  return v;
};
export const number: Check<number> = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShapeError(p);
  return v;
};
export const boolean: Check<boolean> = (v, p) => {
  if (typeof v !== 'boolean') throw new ShapeError(p);
  return v;
};
export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, p) =>
    v === null ? null : check(v, p);
export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v, p) =>
    v === undefined ? undefined : check(v, p);
export const oneOf =
  <T extends string>(values: readonly T[]): Check<T> =>
  (v, p) => {
    if (!(values as readonly unknown[]).includes(v)) throw new ShapeError(p);
    return v as T;
  };
export const arrayOf =
  <T>(check: Check<T>): Check<T[]> =>
  (v, p) => {
    if (!Array.isArray(v)) throw new ShapeError(p);
    return v.map((x, i) => check(x, `${p}[${i}]`));
  };

type Shape = Record<string, Check<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/**
 * An object with these fields. Unknown fields are dropped, as zod's default does, unless `loose` keeps them
 * (fields the API adds later pass through to the screens).
 */
export function object<S extends Shape>(shape: S, options: { loose?: boolean } = {}): Check<Out<S>> {
  return (v, p) => {
    if (!isRecord(v)) throw new ShapeError(p);
    const out: Record<string, unknown> = options.loose ? { ...v } : {};
    for (const [k, check] of Object.entries(shape)) {
      const value = check(v[k], p ? `${p}.${k}` : k);
      if (value !== undefined || k in v) out[k] = value;
    }
    return out as Out<S>;
  };
}

/** Runs a check from the root of an answer. */
export const parseWith =
  <T>(check: Check<T>) =>
  (value: unknown): T =>
    check(value, '');

// ---------------------------------------------------------------------------------------------------------
// The answers both apps read at start: GET /api/me (and POST /login's user), GET /api/dashboard.

const meCheck: Check<Me> = object({
  id: string,
  email: string,
  displayName: string,
  role: oneOf(ROLES),
  isRoot: boolean,
  isAdmin: boolean,
  isOperator: boolean,
  permissions: arrayOf(string),
  company: object({
    id: string,
    name: string,
    timezone: string,
    locale: string,
    product_tier: oneOf(['serviceProvider', 'utilization', 'full'] as const),
  }),
  // A TV's board (decision 1041).
  board: optional(string),
});

/** GET /api/me → the signed-in user (same fields as the domain's meSchema). */
export const parseMe = parseWith(meCheck);

const nullableNumber = nullable(number);
const nullableString = nullable(string);

const dashboardMachineCheck: Check<DashboardMachine & Record<string, unknown>> = object(
  {
    id: string,
    name: string,
    status: oneOf(MACHINE_STATES),
    statusSince: nullableNumber,
    jobScheduleGroupId: nullableString,
    jobId: nullableString,
    pausedJobName: nullableString,
    autostartBehavior: oneOf(['disabled', 'mes', 'key'] as const),
    downtimefailuredelay: number,
    progress: nullableNumber,
    expectedParts: nullableNumber,
    actualParts: nullableNumber,
    setupSince: nullableNumber,
    jobRunSetupTime: nullableNumber,
    stale: boolean,
    lastHeartbeat: nullableNumber,
    faultSince: nullableNumber,
    faultMessage: nullableString,
    extendedStatus: nullableString,
    extendedStatusSince: nullableNumber,
    setupEnd: nullableNumber,
    downtime_reason: nullableString,
    scheduled: boolean,
    groupIds: arrayOf(string),
    program: nullableString,
    partCount: nullableNumber,
    connection: oneOf(['CONNECTING', 'CONNECTED', 'DISCONNECTED', 'NOT CONFIGURED'] as const),
  },
  { loose: true },
);

const dashboardCheck: Check<
  Omit<DashboardResponse, 'machines'> & { machines: (DashboardMachine & Record<string, unknown>)[] }
> = object({
  machines: arrayOf(dashboardMachineCheck),
  groups: arrayOf(object({ id: string, name: string })),
  now: number,
});

/** GET /api/dashboard; machine objects keep fields the API adds later (utilization, oee, partPercent). */
export const parseDashboardResponse = parseWith(dashboardCheck);

// ---------------------------------------------------------------------------------------------------------
// The sign-in form: the rules and texts of the domain's loginRequestSchema.

// The same practical rule as zod's .email(): one @, no spaces, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type LoginErrors = Partial<Record<keyof LoginRequest, string>>;

export function checkLogin(values: { email: string; password: string }): {
  data?: LoginRequest;
  errors: LoginErrors;
} {
  const errors: LoginErrors = {};
  const email = values.email.trim();
  if (!email) errors.email = 'Missing required field: Email';
  else if (!EMAIL.test(email)) errors.email = 'Enter a valid e-mail address';
  if (!values.password) errors.password = 'Missing required field: Password';
  if (errors.email || errors.password) return { errors };
  return { data: { email, password: values.password }, errors };
}
