import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { internalMachinePageSchema, simulationStateSchema } from '@takt/domain';
import type { SimulationState } from '@takt/domain';
import { apiRules, demoAdapterFields, startIngest } from '@takt/ingest';
import type { IngestService } from '@takt/ingest';
import type { Company } from '../repositories/company';
import { createAdapter } from '../repositories/adapters';
import { createShdrSource } from '../repositories/machine-sources';
import { createMachine } from '../repositories/machines';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aUser } from '../testing/builders';
import { runDueCycleSteps } from '../workers/simulation-cycles';

// The test screen for simulated execution (live-operations §2; decision 1100): each action goes through the ingest
// path (stored and put in the inbox as a gateway's line, derived by a running ingest worker), so the machine's live
// row reads it as real data; a machine with a real source is refused, another company's machine is not found.

const POLL = { timeout: 10_000, interval: 50 } as const;

describe.each(DIALECTS)('simulated execution on %s', (dialect) => {
  let h: ApiHarness;
  let ingest: IngestService | undefined;

  beforeEach(async () => {
    h = await apiHarness(dialect, Date.now());
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await h.close();
  });

  /** A machine of `company` whose adapter maps the demo plant's keys (execution, part_count, program, system…). */
  async function aMappedMachine(company: Company, name = 'Sim Lathe') {
    const scope = companyScope(h.t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      { name: 'MTConnect lathe', fields: demoAdapterFields() },
      h.clock.now,
    );
    return createMachine(scope, { name, adapterId }, h.clock.now);
  }

  const startWorker = async () => {
    ingest = await startIngest({
      db: h.t.db,
      flushIntervalMs: 20,
      sourcesIntervalMs: 50,
      inboxIntervalMs: 50,
      rollupIntervalMs: 0,
    });
  };

  const live = (machineId: string) =>
    h.t.db.selectFrom('machine_live').selectAll().where('machine_id', '=', machineId).executeTakeFirst();

  const act = async (cookie: string, machineId: string, body: unknown) => {
    h.clock.now += 1000;
    return h.send('POST', `/api/machines/${machineId}/simulation`, cookie, body);
  };
  const acted = async (cookie: string, machineId: string, body: unknown): Promise<SimulationState> => {
    const res = await act(cookie, machineId, body);
    expect(res.status, await res.clone().text()).toBe(200);
    return simulationStateSchema.parse(await res.json());
  };

  it('drives the machine’s live state through the ingest worker: execution, parts, program, fault', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMappedMachine(company);
    await startWorker();

    const before = await h.read(`/api/machines/${machineId}/simulation`, cookie, simulationStateSchema);
    expect(before).toMatchObject({ active: false, refusal: null, execution: null, machineName: 'Sim Lathe' });
    expect(before.keys).toEqual({
      execution: 'execution',
      availability: 'avail',
      program: 'program',
      partCount: 'part_count',
      condition: 'system',
    });

    const started = await acted(cookie, machineId, { type: 'execution', value: 'ACTIVE' });
    expect(started).toMatchObject({ active: true, execution: 'ACTIVE' });
    await expect.poll(async () => (await live(machineId))?.state, POLL).toBe('ACTIVE');
    expect((await live(machineId))?.connection).toBe('CONNECTED');
    // The source is the simulator, and the machines admin shows it as the machine's source.
    const sources = await h.t.db
      .selectFrom('machine_sources')
      .selectAll()
      .where('machine_id', '=', machineId)
      .execute();
    expect(sources.map((s) => s.kind)).toEqual(['simulator']);
    const admin = (await (await h.get(`/api/machines/${machineId}`, cookie)).json()) as {
      source: { kind: string };
    };
    expect(admin.source.kind).toBe('simulator');
    // Root's machine list says how its data arrives.
    const root = await aUser(h.t.db, company, { isRoot: true });
    const listed = await h.read(
      '/api/internal/machines',
      await h.login(root.email, root.password),
      internalMachinePageSchema,
    );
    expect(listed.items.find((m) => m.id === machineId)?.integrationType).toBe('simulator');

    await acted(cookie, machineId, { type: 'parts', count: 3 });
    expect((await acted(cookie, machineId, { type: 'parts', count: 1 })).partCount).toBe(4);
    await acted(cookie, machineId, { type: 'program', name: 'O1234 SHAFT' });
    await expect
      .poll(async () => {
        const row = await live(machineId);
        return [row?.part_count, row?.program];
      }, POLL)
      .toEqual([4, 'O1234 SHAFT']);

    await acted(cookie, machineId, { type: 'execution', value: 'READY' });
    const faulted = await acted(cookie, machineId, {
      type: 'fault',
      message: 'Spindle overload',
      nativeCode: 'E42',
    });
    expect(faulted.fault).toEqual({ message: 'Spindle overload', nativeCode: 'E42' });
    await expect
      .poll(async () => {
        const row = await live(machineId);
        return [row?.state, row?.fault_message];
      }, POLL)
      .toEqual(['FAULT', 'Spindle overload']);
    expect((await acted(cookie, machineId, { type: 'clearFault' })).fault).toBeNull();
    await expect.poll(async () => (await live(machineId))?.state, POLL).toBe('INACTIVE');

    // Ending: the machine stops (UNAVAILABLE) and the simulator is no longer its source.
    const res = await h.send('DELETE', `/api/machines/${machineId}/simulation`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(simulationStateSchema.parse(await res.json())).toMatchObject({ active: false, execution: null });
    expect((await live(machineId))?.state).toBe('UNAVAILABLE');
    expect(
      await h.t.db.selectFrom('machine_sources').select('kind').where('machine_id', '=', machineId).execute(),
    ).toEqual([]);
    expect(
      await h.t.db.selectFrom('ingest_inbox').select('id').where('machine_id', '=', machineId).execute(),
    ).toEqual([]);
  });

  it('runs automatic cycles: a part and READY at the end of each, ACTIVE at the start of the next, then stops', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMappedMachine(company);
    const started = await acted(cookie, machineId, { type: 'cycles', everySeconds: 10, minutes: 1 });
    const t0 = h.clock.now;
    expect(started.execution).toBe('ACTIVE');
    expect(started.cycles).toEqual({ everySeconds: 10, until: t0 + 60_000, nextAt: t0 + 8000 });

    // Nothing is due before the end of the first cycle.
    expect(await runDueCycleSteps(h.t.db, apiRules, t0 + 7999)).toBe(0);
    await runDueCycleSteps(h.t.db, apiRules, t0 + 8000);
    const ended = await h.read(`/api/machines/${machineId}/simulation`, cookie, simulationStateSchema);
    expect(ended).toMatchObject({ execution: 'READY', partCount: 1 });
    expect(ended.cycles?.nextAt).toBe(t0 + 10_000);
    // A step claimed is sent once: the same round again finds nothing due.
    expect(await runDueCycleSteps(h.t.db, apiRules, t0 + 9000)).toBe(0);
    await runDueCycleSteps(h.t.db, apiRules, t0 + 10_000);
    expect(
      (await h.read(`/api/machines/${machineId}/simulation`, cookie, simulationStateSchema)).execution,
    ).toBe('ACTIVE');
    // Far past the end: the last cycle ends with its part and the cycles stop.
    await runDueCycleSteps(h.t.db, apiRules, t0 + 60_000);
    const last = await h.read(`/api/machines/${machineId}/simulation`, cookie, simulationStateSchema);
    expect(last).toMatchObject({ execution: 'READY', partCount: 2, cycles: null });
    const values = await h.t.db
      .selectFrom('observations')
      .select(['key', 'value'])
      .where('machine_id', '=', machineId)
      .where('key', 'in', ['execution', 'part_count'])
      .orderBy('ts')
      .orderBy('key')
      .execute();
    // A cycle's end is one line: its part and READY at the same time.
    expect(values.map((o) => `${o.key}=${o.value}`)).toEqual([
      'execution=ACTIVE',
      'execution=READY',
      'part_count=1',
      'execution=ACTIVE',
      'execution=READY',
      'part_count=2',
    ]);

    // Stopped by hand: nothing more is due.
    await acted(cookie, machineId, { type: 'cycles', everySeconds: 5, minutes: 1 });
    expect((await acted(cookie, machineId, { type: 'stopCycles' })).cycles).toBeNull();
    expect(await runDueCycleSteps(h.t.db, apiRules, h.clock.now + 3_600_000)).toBe(0);
  });

  it('refuses with 409 a machine with a real source, a manual work center and a machine whose adapter maps no execution', async () => {
    const { company, cookie } = await h.tenant();
    const scope = companyScope(h.t.db, company.id);
    const wired = await aMappedMachine(company, 'Wired Mill');
    await createShdrSource(scope, { machineId: wired, host: '10.0.0.21', port: 7878 }, h.clock.now);
    const manual = await createMachine(scope, { name: 'Bench', workcenterType: 'manual' }, h.clock.now);
    const bare = await createMachine(scope, { name: 'Bare', adapterId: null }, h.clock.now);

    const refused = async (machineId: string) => {
      const res = await act(cookie, machineId, { type: 'execution', value: 'ACTIVE' });
      expect(res.status).toBe(409);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    expect(await refused(wired)).toContain(
      'This machine has a data source (an SHDR adapter at 10.0.0.21:7878)',
    );
    expect(await refused(manual)).toContain('A manual work center has no machine data to simulate');
    expect(await refused(bare)).toContain('maps no Execution item');
    // The refusal is on the screen before any action, and nothing was written.
    expect(
      (await h.read(`/api/machines/${wired}/simulation`, cookie, simulationStateSchema)).refusal,
    ).toContain('simulation is only for a machine without one');
    const kinds = await h.t.db.selectFrom('machine_sources').select('kind').execute();
    expect(kinds.map((k) => k.kind)).toEqual(['shdr']);
    expect(await h.t.db.selectFrom('ingest_inbox').select('id').execute()).toEqual([]);
  });

  it('answers 400 in the field’s words for bad actions and bounds', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMappedMachine(company);
    const problems = async (body: unknown) => {
      const res = await act(cookie, machineId, body);
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    expect(await problems({ type: 'parts', count: 0 })).toContain('Parts must be from 1 to 1000');
    expect(await problems({ type: 'parts', count: 1001 })).toContain('Parts must be from 1 to 1000');
    expect(await problems({ type: 'parts', count: 1.5 })).toContain('Parts must be a whole number');
    expect(await problems({ type: 'fault', message: 'a|b' })).toContain('may not contain |');
    expect(await problems({ type: 'program', name: 'x'.repeat(101) })).toContain('at most 100 characters');
    expect(await problems({ type: 'program', name: 'O1\nO2' })).toContain('control characters');
    expect(await problems({ type: 'cycles', everySeconds: 1, minutes: 5 })).toContain(
      'A cycle every 5 to 600 seconds',
    );
    expect(await problems({ type: 'cycles', everySeconds: 10, minutes: 61 })).toContain('1 to 60 minutes');
    expect(await problems({ type: 'execution', value: 'FLYING' })).toBeTruthy();
    expect(await problems({ type: 'execution', value: 'ACTIVE', extra: 1 })).toContain(
      'Unknown field: extra',
    );
    expect(await problems({ type: 'teleport' })).toBeTruthy();
    expect(await h.t.db.selectFrom('machine_sources').select('id').execute()).toEqual([]);
  });

  it('is for admins of the machine’s company: 403 for a manager or an operator, 404 for another company', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMappedMachine(company);
    const other = await h.tenant();
    const path = `/api/machines/${machineId}/simulation`;
    expect((await h.get(path, other.cookie)).status).toBe(404);
    expect((await act(other.cookie, machineId, { type: 'execution', value: 'ACTIVE' })).status).toBe(404);
    expect((await h.send('DELETE', path, other.cookie)).status).toBe(404);
    for (const role of ['manager', 'operator'] as const) {
      const user = await aUser(h.t.db, company, { role });
      const theirs = await h.login(user.email, user.password);
      expect((await h.get(path, theirs)).status).toBe(403);
      expect((await act(theirs, machineId, { type: 'execution', value: 'ACTIVE' })).status).toBe(403);
    }
    expect(await h.t.db.selectFrom('machine_sources').select('id').execute()).toEqual([]);
    expect((await h.get(path, cookie)).status).toBe(200);
  });
});
