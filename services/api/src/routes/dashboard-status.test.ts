import { apiRules } from '@takt/ingest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { companyScope } from '@takt/db';
import type { Deps } from '../http/context';
import { inProcessBus } from '../live/bus';
import { createAdapter } from '../repositories/adapters';
import type { Company } from '../repositories/company';
import { createMachine } from '../repositories/machines';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJobRun, HOUR, MIN } from '../testing/downtime-builders';
import type { CycleEntry, DashboardStatus } from '../services/dashboard';
import { machineSourceRow } from '../repositories/machine-sources';

describe.each(DIALECTS)('live dashboard status and cycles on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function configuredMachine(company: Company, name: string) {
    const scope = companyScope(h.t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      {
        name: `Adapter ${name}`,
        fields: [
          { name: 'exec', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
          { name: 'pc', dataItemType: 'PART_COUNT', componentName: 'path', componentType: 'Path' },
        ],
      },
      1,
    );
    return createMachine(scope, { name, adapterId }, 1);
  }

  const observe = (company: Company, machineId: string, rows: Array<[number, string, string | null]>) =>
    h.t.db
      .insertInto('observations')
      .values(
        rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machineId, ts, key, value })),
      )
      .execute();

  async function aGateway(company: Company, name: string, lastResponse: number | null) {
    const id = crypto.randomUUID();
    await h.t.db
      .insertInto('gateways')
      .values({
        id,
        company_id: company.id,
        name,
        asset_serial: 'SERIAL-1',
        edge_ref: 'edge-ref',
        token_hash: id.replace(/-/g, '').padEnd(64, 'f'),
        state: 'active',
        activation_status: lastResponse === null ? 'pending' : 'activated',
        ingest_multiplier: 1,
        pusher_config: '{}',
        supervisor_config: '{}',
        last_sequence: null,
        last_response: lastResponse,
        buffered_records: null,
        last_shdr: null,
        supervisor_last_join: null,
        created_at: 1,
      })
      .execute();
    return id;
  }

  /** A machine bound to the gateway whose live row says it is connected or not. */
  async function boundMachine(company: Company, gatewayId: string, connection: 'CONNECTED' | 'DISCONNECTED') {
    const machineId = await aMachine(h.t.db, company);
    const scope = companyScope(h.t.db, company.id);
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({
          machine_id: machineId,
          kind: 'gateway',
          created_at: 1,
          gateway_id: gatewayId,
          machine_ref: machineId,
        }),
      )
      .execute();
    await scope
      .insertInto('machine_live', {
        machine_id: machineId,
        state: 'ACTIVE',
        state_since: h.clock.now - HOUR,
        connection,
        connection_since: h.clock.now - HOUR,
        last_heartbeat: h.clock.now - 1000,
        execution: null,
        execution_since: null,
        availability: null,
        controller_mode: null,
        program: null,
        part_count: null,
        spindle_speed: null,
        fault_since: null,
        fault_message: null,
        in_setup: 0,
        updated_at: h.clock.now,
      })
      .execute();
    return machineId;
  }

  const statusOf = async (cookie: string, query = '') => {
    const res = await h.get(`/api/dashboard/status${query}`, cookie);
    expect(res.status).toBe(200);
    return (await res.json()) as DashboardStatus;
  };

  it('lists the keys each machine sent in the last hour that its adapter does not map, per company', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const now = h.clock.now;
    const noisy = await configuredMachine(a.company, 'Noisy');
    const quiet = await configuredMachine(a.company, 'Quiet');
    const bare = await aMachine(h.t.db, a.company, { name: 'No adapter' });
    await observe(a.company, noisy, [
      [now - 5 * MIN, 'exec', 'ACTIVE'],
      [now - 4 * MIN, 'temp', '41'],
      [now - 3 * MIN, 'temp', '42'],
      [now - 2 * MIN, 'alarm_x', 'on'],
      [now - 2 * HOUR, 'old_key', '1'],
      [now - MIN, '@connection', 'CONNECTED'],
    ]);
    await observe(a.company, quiet, [[now - MIN, 'pc', '12']]);
    await observe(a.company, bare, [[now - MIN, 'spindle', '1200']]);
    const foreign = await configuredMachine(b.company, 'Foreign');
    await observe(b.company, foreign, [[now - MIN, 'foreign_key', '1']]);

    const mine = await statusOf(a.cookie);
    // In the machines' order (sort order, then name); only machines that send unmapped keys.
    expect(mine.unmapped).toEqual([
      { machineId: bare, keys: ['spindle'] },
      { machineId: noisy, keys: ['alarm_x', 'temp'] },
    ]);
    expect(mine.gateways).toEqual([]);
    expect((await statusOf(b.cookie)).unmapped).toEqual([{ machineId: foreign, keys: ['foreign_key'] }]);
    expect((await statusOf(a.cookie, '?include=gateways')).unmapped).toEqual([]);
    // A machine another company's observations name is not counted: the scan is the caller's company only.
    await observe(b.company, noisy, [[now - MIN, 'planted', '1']]);
    expect((await statusOf(a.cookie)).unmapped[1]).toEqual({ machineId: noisy, keys: ['alarm_x', 'temp'] });
  });

  it('shows every user of the company its gateways’ health, without tokens or configuration', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const operator = await aUser(h.t.db, a.company, { role: 'operator' });
    const opCookie = await h.login(operator.email, operator.password);
    const now = h.clock.now;
    const degraded = await aGateway(a.company, 'Edge A', now - 1000);
    await boundMachine(a.company, degraded, 'CONNECTED');
    await boundMachine(a.company, degraded, 'DISCONNECTED');
    const normal = await aGateway(a.company, 'Edge B', now - 1000);
    await boundMachine(a.company, normal, 'CONNECTED');
    const never = await aGateway(a.company, 'Edge C', null);
    const theirs = await aGateway(b.company, 'Edge Theirs', now - 1000);

    const expected = [
      { id: degraded, name: 'Edge A', health: { status: 'MixedStatus', label: 'Degraded', tone: 'warning' } },
      { id: normal, name: 'Edge B', health: { status: 'Normal', label: 'Normal', tone: 'success' } },
      {
        id: never,
        name: 'Edge C',
        health: { status: 'NeverReported', label: 'Never Reported', tone: 'warning' },
      },
    ];
    expect((await statusOf(a.cookie)).gateways).toEqual(expected);
    const asOperator = await h.get('/api/dashboard/status?include=gateways', opCookie);
    expect(asOperator.status).toBe(200);
    const text = await asOperator.text();
    expect((JSON.parse(text) as DashboardStatus).gateways).toEqual(expected);
    expect(text).not.toContain('ffff');
    expect(text).not.toMatch(/token/i);
    expect(text).not.toContain('SERIAL-1');
    expect(text).not.toContain('edge-ref');
    expect((await statusOf(a.cookie, '?include=unmapped')).gateways).toEqual([]);
    expect((await statusOf(b.cookie)).gateways.map((g) => g.id)).toEqual([theirs]);
    expect((await h.get('/api/dashboard/status', '')).status).toBe(401);
    expect((await h.get('/api/dashboard/status?include=nope', a.cookie)).status).toBe(400);
  });

  it('offers the Cycles dashboard to no company when TAKT_CYCLES_DASHBOARD_COMPANY is unset', async () => {
    const a = await h.tenant();
    expect((await statusOf(a.cookie)).cyclesDashboard).toBe(false);
    const res = await h.get('/api/dashboard/cycles', a.cookie);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('DASHBOARD_NOT_AVAILABLE');
  });

  it('gives the configured company only the last cycle against expected per machine', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const deps: Deps = {
      db: h.t.db,
      dialect,
      now: () => h.clock.now,
      demoMode: false,
      secureCookies: false,
      staticRoot: null,
      bus: inProcessBus(),
      ingest: apiRules,
      cyclesDashboardCompany: a.company.id,
    };
    const app = createApp(deps);
    const get = (path: string, cookie: string) => app.request(path, { headers: { cookie } });
    const now = h.clock.now;
    const slow = await aMachine(h.t.db, a.company, { name: 'Slow', sortOrder: 1 });
    const idle = await aMachine(h.t.db, a.company, { name: 'Idle', sortOrder: 2 });
    const stale = await aMachine(h.t.db, a.company, { name: 'Stale', sortOrder: 3 });
    await aJobRun(h.t.db, a.company, slow, { start: now - HOUR });
    const cycle = (machine: string, end: number, duration: number, setup = 0) => ({
      machine_id: machine,
      start_at: end - duration,
      end_at: end,
      duration,
      count: 1,
      source: 'part_count',
      setup,
    });
    await companyScope(h.t.db, a.company.id)
      .insertInto('cycles', [
        cycle(slow, now - 10 * MIN, 58_000),
        cycle(slow, now - 2 * MIN, 72_000),
        // A setup cycle is not a production cycle; one in the future (clock skew) is not "last" either.
        cycle(slow, now - MIN, 5_000, 1),
        cycle(slow, now + MIN, 1_000),
        cycle(idle, now - 30 * MIN, 40_000),
        cycle(stale, now - 30 * HOUR, 40_000),
      ])
      .execute();

    const statusRes = await get('/api/dashboard/status?include=unmapped', a.cookie);
    expect(((await statusRes.json()) as DashboardStatus).cyclesDashboard).toBe(true);
    const res = await get('/api/dashboard/cycles', a.cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as CycleEntry[];
    expect(body).toEqual([
      {
        machineId: slow,
        lastCycleMs: 72_000,
        lastCycleAt: now - 2 * MIN,
        expectedCycleMs: 60_000,
        deltaMs: 12_000,
      },
      {
        machineId: idle,
        lastCycleMs: 40_000,
        lastCycleAt: now - 30 * MIN,
        expectedCycleMs: null,
        deltaMs: null,
      },
      { machineId: stale, lastCycleMs: null, lastCycleAt: null, expectedCycleMs: null, deltaMs: null },
    ]);

    // Another company on the same server: not available, and its own machines only would be listed anyway.
    await aMachine(h.t.db, b.company);
    const other = await get('/api/dashboard/cycles', b.cookie);
    expect(other.status).toBe(403);
    const otherStatus = await get('/api/dashboard/status', b.cookie);
    expect(((await otherStatus.json()) as DashboardStatus).cyclesDashboard).toBe(false);
    const third = await aCompany(h.t.db);
    expect(third.id).not.toBe(a.company.id);
  });
});
