import { apiRules } from '@takt/ingest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { parseEnv } from './env';
import { DEMO_LOGINS, DEMO_MANUAL_STATIONS, DEMO_PLANT, ensureAdmin, ensureDemoCompany } from './provision';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { inProcessBus } from './live/bus';

const FIELDS = [
  { name: 'execution', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
];

describe.each(DIALECTS)('start-up provisioning on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const loginStatus = async (email: string, password: string) => {
    const app = createApp({
      db: t.db,
      dialect,
      now: () => 1_800_000_000_000,
      demoMode: true,
      secureCookies: false,
      staticRoot: null,
      bus: inProcessBus(),
      ingest: apiRules,
    });
    const res = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return res.status;
  };

  it('seeds the demo company once: 12 machines in 2 groups with an SHDR source each, a manual work center, and three logins', async () => {
    const first = await ensureDemoCompany(t.db, { portBase: 7000, seed: 1, adapterFields: FIELDS, now: 1 });
    expect(first).toHaveLength(12);
    expect(first.map((m) => m.port)).toEqual(Array.from({ length: 12 }, (_, i) => 7000 + i));
    expect(first.map((m) => m.name)).toEqual(DEMO_PLANT.flatMap((g) => [...g.machines]));
    const groups = await t.db.selectFrom('machine_groups').select('name').orderBy('sort_order').execute();
    expect(groups.map((g) => g.name)).toEqual(['Milling', 'Turning', 'Assembly']);
    // A manual work center beside the simulated machines: no adapter, no source, so nothing simulates it.
    const manual = await t.db
      .selectFrom('machines')
      .select(['name', 'adapter_id'])
      .where('workcenter_type', '=', 'manual')
      .execute();
    expect(manual).toEqual(
      DEMO_MANUAL_STATIONS.flatMap((g) => g.stations.map((name) => ({ name, adapter_id: null }))),
    );
    expect(first.map((m) => m.name)).not.toContain(manual[0]!.name);
    // The simulator's adapter is of a known adapter type (reports-admin §3), so the adapter admin can save it.
    const typed = await t.db
      .selectFrom('adapters as a')
      .innerJoin('adapter_types as ty', 'ty.name', 'a.class')
      .select(['a.name', 'ty.name as type'])
      .execute();
    expect(typed).toEqual([{ name: 'Takt demo simulator', type: 'MTConnect' }]);
    // Setup stages are on, so the floor offers one start button per stage.
    const demo = await t.db.selectFrom('companies').select('enable_setup_stages').executeTakeFirstOrThrow();
    expect(demo.enable_setup_stages).toBe(1);
    for (const l of DEMO_LOGINS) expect(await loginStatus(l.email, l.password), l.email).toBe(200);

    // A restart on other ports re-points the sources and seeds nothing twice.
    const again = await ensureDemoCompany(t.db, { portBase: 9000, seed: 1, adapterFields: FIELDS, now: 2 });
    expect(again.map((m) => m.machineId)).toEqual(first.map((m) => m.machineId));
    const ports = await t.db.selectFrom('machine_sources').select('port').orderBy('port').execute();
    expect(ports.map((p) => p.port)).toEqual(Array.from({ length: 12 }, (_, i) => 9000 + i));
    expect(await t.db.selectFrom('companies').select('id').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(3);
  });

  it('creates the TAKT_ADMIN_EMAIL admin once, in the first company, or in a new one on an empty database', async () => {
    expect(await ensureAdmin(t.db, { email: 'Boss@Plant.example', password: 'Plant-admin1', now: 1 })).toBe(
      'created',
    );
    expect(await ensureAdmin(t.db, { email: 'boss@plant.example', password: 'Other-pass1', now: 2 })).toBe(
      'exists',
    );
    expect(await loginStatus('boss@plant.example', 'Plant-admin1')).toBe(200);
    const users = await t.db.selectFrom('users').select(['role', 'company_id']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]!.role).toBe('admin');
    expect(await t.db.selectFrom('companies').select('id').execute()).toHaveLength(1);
  });

  it('puts the admin into the demo company when the demo is on', async () => {
    await ensureDemoCompany(t.db, { portBase: 7000, seed: 1, adapterFields: FIELDS, now: 1 });
    await ensureAdmin(t.db, { email: 'boss@plant.example', password: 'Plant-admin1', now: 2 });
    const demo = await t.db
      .selectFrom('companies')
      .select('id')
      .where('is_demo', '=', 1)
      .executeTakeFirstOrThrow();
    const boss = await t.db
      .selectFrom('users')
      .select('company_id')
      .where('email', '=', 'boss@plant.example')
      .executeTakeFirstOrThrow();
    expect(boss.company_id).toBe(demo.id);
  });
});

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 8080,
      DATABASE_URL: './data/takt.db',
      TAKT_DEMO: false,
      TAKT_INGEST: true,
    });
  });
  it('refuses bad values with a clear message naming the variable', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseEnv({ TAKT_DEMO: 'yes please' })).toThrow(/TAKT_DEMO/);
    expect(() => parseEnv({ TAKT_ADMIN_EMAIL: 'a@b.example' })).toThrow(/TAKT_ADMIN_PASSWORD/);
  });
});
