import type { ZodType } from 'zod';
import { createApp } from '../app';
import type { DialectName } from '@takt/db';
import type { Deps } from '../http/context';
import type { Company } from '../repositories/company';
import type { User } from '../repositories/users';
import { aCompany, aUser } from './builders';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { inProcessBus } from '../live/bus';
import { apiRules } from '@takt/ingest';

/**
 * An API on a fresh database with a controllable clock, for route tests:
 *   const h = await apiHarness('sqlite'); const { cookie } = await h.loginAs(user); await h.get('/api/x', cookie)
 */
export interface ApiHarness {
  t: TestDb;
  app: ReturnType<typeof createApp>;
  clock: { now: number };
  /** The live bus the app publishes on (in-process). */
  bus: Deps['bus'];
  /** A new company with an admin already logged in. */
  tenant(over?: { role?: User['role'] }): Promise<{ company: Company; user: User; cookie: string }>;
  login(email: string, password: string): Promise<string>;
  get(path: string, cookie: string): Promise<Response>;
  /** GET that must answer 200, its body checked against `schema` (throws otherwise). */
  read<T>(path: string, cookie: string, schema: ZodType<T>): Promise<T>;
  send(
    method: 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    path: string,
    cookie: string,
    body?: unknown,
  ): Promise<Response>;
  close(): Promise<void>;
}

type HarnessOptions = Partial<
  Pick<
    Deps,
    | 'mail'
    | 'log'
    | 'metricsToken'
    | 'frameAncestors'
    | 'staticRoot'
    | 'publicUrl'
    | 'trustedProxies'
    | 'sourcePolicy'
    | 'dashboardAnswers'
  >
>;

export async function apiHarness(
  dialect: DialectName,
  start = 1_763_800_000_000,
  over: HarnessOptions = {},
): Promise<ApiHarness> {
  return apiHarnessOn(await freshDb(dialect), start, over);
}

/** The harness on a database the test made itself (a restored backup, say); close() runs its cleanup. */
export function apiHarnessOn(t: TestDb, start = 1_763_800_000_000, over: HarnessOptions = {}): ApiHarness {
  const dialect = t.dialect;
  const clock = { now: start };
  const deps: Deps = {
    db: t.db,
    dialect,
    now: () => clock.now,
    demoMode: false,
    secureCookies: false,
    staticRoot: null,
    bus: inProcessBus(),
    ingest: apiRules,
    ...over,
  };
  const app = createApp(deps);
  const login = async (email: string, password: string) => {
    const res = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return res.headers.get('set-cookie')?.split(';')[0] ?? '';
  };
  const get = async (path: string, cookie: string) => app.request(path, { headers: { cookie } });
  return {
    t,
    app,
    clock,
    bus: deps.bus,
    login,
    async tenant(over = {}) {
      const company = await aCompany(t.db);
      const user = await aUser(t.db, company, { role: over.role ?? 'admin' });
      return { company, user, cookie: await login(user.email, user.password) };
    },
    get,
    async read(path, cookie, schema) {
      const res = await get(path, cookie);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      return schema.parse(await res.json());
    },
    send: async (method, path, cookie, body) =>
      app.request(path, {
        method,
        headers: { cookie, origin: 'http://localhost', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    close: () => t.cleanup(),
  };
}
