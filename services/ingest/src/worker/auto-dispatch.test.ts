// Auto job dispatch (issue 29 point 5, decision 1094): a real SHDR adapter on a socket sends the value that names
// a job; the worker's hook starts it through the API's dispatch service at the data's time, once per change.
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DispatchValue } from '@takt/domain';
import { companyScope, runRawRetention } from '@takt/db';
import { DIALECTS, freshDb, spanTimes } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import type { Company } from '../../../api/src/repositories/company';
import { autoDispatch } from '../../../api/src/services/auto-dispatch';
import type { AutoDispatchCounts } from '../../../api/src/services/auto-dispatch';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { aJob } from '../../../api/src/testing/live-builders';
import { demoAdapterFields } from '../demo/demo-adapter';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import type { FakeAdapter } from '../testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, sleep, waitFor } from '../testing/test-support';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('auto job dispatch from an SHDR adapter (%s)', (dialect) => {
  let t: TestDb;
  let adapter: FakeAdapter;
  let ingest: IngestService | undefined;
  let socket: net.Socket | undefined;
  let company: Company;
  let machineId: string;
  const t0 = 1_790_000_000_000;
  let clock = t0;
  const now = () => clock;
  const counts: AutoDispatchCounts = { started: 0, unknown: 0, refused: 0 };
  const hooked: DispatchValue[] = [];

  const onDispatch = async (values: DispatchValue[]) => {
    hooked.push(...values);
    const c = await autoDispatch(t.db, values, { now, log: () => {} });
    counts.started += c.started;
    counts.unknown += c.unknown;
    counts.refused += c.refused;
  };
  const start = async () => {
    socket = undefined;
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      now,
      onDispatch,
    });
    await waitFor(() => socket, 5000, 'the ingest link');
  };
  /** Sends a line stamped `ts` and waits until the worker stored it (and so ran its dispatch hook). */
  const send = async (ts: number, pairs: string) => {
    clock = Math.max(clock, ts + 5);
    socket!.write(`${iso(ts)}|${pairs}\n`);
    const stored = () =>
      t.db
        .selectFrom('observations')
        .select('ts')
        .where('machine_id', '=', machineId)
        .where('ts', '=', ts)
        .executeTakeFirst();
    for (let tries = 0; !(await stored()); tries++) {
      if (tries > 500) throw new Error(`the line at ${ts} was not stored`);
      await sleep(10);
    }
    await ingest!.flush();
  };
  const runs = () =>
    t.db
      .selectFrom('job_runs')
      .select(['job_id', 'start_at', 'end_at', 'setup_mode', 'setup_end'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute()
      .then(spanTimes);
  const setMachine = (over: {
    autostart_behavior?: 'disabled' | 'mes' | 'key';
    dispatch_key?: string | null;
  }) =>
    companyScope(t.db, company.id).updateTable('machines').set(over).where('id', '=', machineId).execute();
  const setCompany = (on: boolean) =>
    t.db
      .updateTable('companies')
      .set({ enable_auto_job_dispatch: on ? 1 : 0 })
      .where('id', '=', company.id)
      .execute();

  beforeEach(async () => {
    t = await freshDb(dialect);
    clock = t0 - 1000;
    Object.assign(counts, { started: 0, unknown: 0, refused: 0 });
    hooked.length = 0;
    adapter = await fakeAdapter((s) => {
      socket = s;
    });
    company = await aCompany(t.db);
    const scope = companyScope(t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      {
        name: 'demo',
        fields: [
          ...demoAdapterFields(),
          {
            name: 'wo',
            dataItemType: 'WORK_ORDER',
            dataItemSubtype: null,
            componentName: 'path',
            componentType: 'Path',
          },
        ],
      },
      0,
    );
    machineId = await aMachine(t.db, company, { name: 'Mill' });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, 0);
  });

  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await adapter.close();
    await t.cleanup();
  });

  it('mes: the program names the job; a change switches jobs at its time, a repeat or a restart starts nothing', async () => {
    await setCompany(true);
    await setMachine({ autostart_behavior: 'mes' });
    const other = await aCompany(t.db);
    // The other company's jobs of the same name are never used; its only job stays unknown here.
    await aJob(t.db, other, { name: 'PART-100' });
    await aJob(t.db, other, { name: 'ONLY-THEIRS' });
    const p100 = await aJob(t.db, company, { name: 'PART-100' });
    const p200 = await aJob(t.db, company, { name: 'Bracket', erpJobId: 'WO-200' });
    await aJob(t.db, company, { name: 'RETIRED', hidden: true });
    await start();

    await send(t0, 'avail|AVAILABLE|execution|ACTIVE|program|PART-100');
    expect(await runs()).toEqual([
      { job_id: p100, start_at: t0, end_at: null, setup_mode: 'none', setup_end: t0 },
    ]);
    // The same value again (the adapter repeats it): nothing new.
    await send(t0 + 1000, 'program|PART-100');
    // A change: the running job stops and the named one (by its ERP job id) starts, at the data's time.
    await send(t0 + 2000, 'program|WO-200');
    const switched = [
      { job_id: p100, start_at: t0, end_at: t0 + 2000, setup_mode: 'none', setup_end: t0 },
      { job_id: p200, start_at: t0 + 2000, end_at: null, setup_mode: 'none', setup_end: t0 + 2000 },
    ];
    expect(await runs()).toEqual(switched);
    expect(counts).toEqual({ started: 2, unknown: 0, refused: 0 });

    // A restarted worker: the adapter sends its current values again on the new connection.
    await ingest!.stop();
    ingest = undefined;
    await start();
    await send(t0 + 5000, 'avail|AVAILABLE|execution|ACTIVE|program|WO-200');
    // A replay of every value the hook was given: each change is done already.
    const again = await autoDispatch(t.db, [...hooked], { now, log: () => {} });
    expect(again).toEqual({ started: 0, unknown: 0, refused: 0 });
    expect(await runs()).toEqual(switched);

    // Names of no job of this company (another company's, a retired one, none): counted, nothing started.
    await send(t0 + 6000, 'program|ONLY-THEIRS');
    await send(t0 + 7000, 'program|RETIRED');
    await send(t0 + 8000, 'program|O9999');
    expect(await runs()).toEqual(switched);
    expect(counts).toEqual({ started: 2, unknown: 3, refused: 0 });
  });

  it('raw retention: the same value after its row was removed is no change (the kept seed, decision 1132)', async () => {
    await setCompany(true);
    await setMachine({ autostart_behavior: 'mes' });
    const p100 = await aJob(t.db, company, { name: 'PART-100' });
    await start();
    await send(t0, 'avail|AVAILABLE|execution|ACTIVE|program|PART-100');
    const started = [{ job_id: p100, start_at: t0, end_at: null, setup_mode: 'none', setup_end: t0 }];
    expect(await runs()).toEqual(started);
    // Three days on, one day kept: the row that named the job is gone, its value kept as the key's seed.
    const later = t0 + 3 * 86_400_000;
    const pass = await runRawRetention(t.db, 1, later);
    expect(pass.floor).toBeGreaterThan(t0);
    await send(later, 'program|PART-100');
    expect(await runs()).toEqual(started);
    expect(counts).toEqual({ started: 1, unknown: 0, refused: 0 });
  });

  it('key: the adapter key the dispatchKey names carries the job; the program does not', async () => {
    await setCompany(true);
    await setMachine({ autostart_behavior: 'key', dispatch_key: 'wo' });
    const p100 = await aJob(t.db, company, { name: 'PART-100' });
    await aJob(t.db, company, { name: 'PART-300' });
    await start();
    await send(t0, 'avail|AVAILABLE|program|PART-300|wo|PART-100');
    await send(t0 + 1000, 'program|PART-100');
    expect(await runs()).toEqual([
      { job_id: p100, start_at: t0, end_at: null, setup_mode: 'none', setup_end: t0 },
    ]);
  });

  it('late data: a change before the running job started is refused and counted, nothing changes', async () => {
    await setCompany(true);
    await setMachine({ autostart_behavior: 'mes' });
    const p100 = await aJob(t.db, company, { name: 'PART-100' });
    await aJob(t.db, company, { name: 'PART-200' });
    await start();
    await send(t0 + 5000, 'avail|AVAILABLE|program|PART-100');
    // A line from before it (an adapter's backlog) names another job: stopping the running one then is refused.
    await send(t0 + 1000, 'program|PART-200');
    expect(await runs()).toEqual([
      { job_id: p100, start_at: t0 + 5000, end_at: null, setup_mode: 'none', setup_end: t0 + 5000 },
    ]);
    expect(counts).toEqual({ started: 1, unknown: 0, refused: 1 });
  });

  it('settings are read with the sources: a company turning dispatch on is heard at the next read (decision 1120)', async () => {
    await setMachine({ autostart_behavior: 'mes' });
    await aJob(t.db, company, { name: 'PART-100' });
    const p200 = await aJob(t.db, company, { name: 'PART-200' });
    await start();
    await send(t0, 'avail|AVAILABLE|program|PART-100');
    expect(hooked).toEqual([]);
    await setCompany(true);
    // The worker re-reads its sources every few seconds (sourcesIntervalMs); a test reads them now.
    await ingest!.refresh();
    await send(t0 + 1000, 'program|PART-200');
    expect(await runs()).toEqual([
      { job_id: p200, start_at: t0 + 1000, end_at: null, setup_mode: 'none', setup_end: t0 + 1000 },
    ]);
  });

  it('off: the company setting off or the machine disabled starts nothing', async () => {
    await aJob(t.db, company, { name: 'PART-100' });
    await aJob(t.db, company, { name: 'PART-200' });
    await setMachine({ autostart_behavior: 'mes' });
    await start();
    await send(t0, 'avail|AVAILABLE|program|PART-100');
    await setCompany(true);
    await setMachine({ autostart_behavior: 'disabled' });
    await send(t0 + 1000, 'program|PART-200');
    expect(await runs()).toEqual([]);
    expect(hooked).toEqual([]);
  });
});
