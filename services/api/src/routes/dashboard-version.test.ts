import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@takt/domain';
import { companyScope, foldLiveGenerations } from '@takt/db';
import { liveDataVersion, markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { createAdapter } from '../repositories/adapters';
import { insertAnnotation } from '../repositories/annotations';
import { machineSourceRow } from '../repositories/machine-sources';
import { DashboardAnswers } from '../services/dashboard-shared';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aJobRun, aMachineLive, HOUR, MIN } from '../testing/downtime-builders';

// Decision 1206: the dashboard's live data version is the company's live generation, bumped by the database's own
// triggers (migration 0071) on every write of what the answer shows: a live row, a job run started or stopped, a
// rollup mark, and the writes the content hash of decision 1200 could not see (an annotation or a part adjustment
// written without its mark, a data source, an adapter field). Another company's writes never move it.

describe.each(DIALECTS)('the dashboard live data version on %s', (dialect) => {
  let h: ApiHarness;
  let answers: DashboardAnswers;
  beforeEach(async () => {
    answers = new DashboardAnswers();
    h = await apiHarness(dialect, undefined, { dashboardAnswers: answers });
  });
  afterEach(async () => {
    await h.close();
  });

  async function plant() {
    const tenant = await h.tenant();
    const now = h.clock.now;
    const machine = await aMachine(h.t.db, tenant.company, { name: 'M1' });
    await aMachineLive(h.t.db, tenant.company, machine, {
      state: 'ACTIVE',
      since: now - HOUR,
      connectedSince: now - HOUR,
      now,
    });
    return { ...tenant, machine, scope: companyScope(h.t.db, tenant.company.id) };
  }

  it('changes with every write the answer shows, not with another company’s nor with source counters', async () => {
    const a = await plant();
    const b = await plant();
    const now = h.clock.now;
    const versions = async () => [await liveDataVersion(a.scope, now), await liveDataVersion(b.scope, now)];
    let [seenA, seenB] = await versions();
    /** `write` changes A's version (and leaves B's) when `changes`, else leaves both. */
    const expectAfter = async (what: string, write: () => Promise<unknown>, changes = true) => {
      await write();
      const [nowA, nowB] = await versions();
      expect({ what, changed: nowA !== seenA }).toEqual({ what, changed: changes });
      expect({ what, other: nowB }).toEqual({ what, other: seenB });
      seenA = nowA;
    };
    const adapterId = await createAdapter(a.scope, { name: 'Adapter', fields: [] }, now);
    await a.scope
      .updateTable('machines')
      .set({ adapter_id: adapterId })
      .where('id', '=', a.machine)
      .execute();
    [seenA, seenB] = await versions();

    await expectAfter('live row, same millisecond', () =>
      a.scope
        .updateTable('machine_live')
        .set({ program: 'O1' })
        .where('machine_id', '=', a.machine)
        .execute(),
    );
    await expectAfter('job run started', () => aJobRun(h.t.db, a.company, a.machine, { start: now - MIN }));
    await expectAfter('job run stopped', () =>
      a.scope.updateTable('job_runs').set({ end_at: now }).where('machine_id', '=', a.machine).execute(),
    );
    await expectAfter('rollup mark', () =>
      markRollupsDirty(h.t.db, { companyId: a.company.id, machineId: a.machine, from: now - MIN, now }),
    );
    // Written behind the API's back, without a rollup mark: the content hash of decision 1200 did not see these.
    await expectAfter('annotation', () =>
      insertAnnotation(
        a.scope,
        {
          machineId: a.machine,
          typeId: null,
          start: now - MIN,
          end: null,
          message: null,
          planned: null,
          setup: false,
        },
        null,
        now,
      ),
    );
    await expectAfter('part adjustment', () =>
      a.scope
        .insertInto('part_adjustments', {
          id: crypto.randomUUID(),
          machine_id: a.machine,
          adjustment_time: now - MIN,
          type_id: null,
          scrapcount: 1,
          count: 0,
          message: null,
          reject_behavior: 'scrap',
          deduct_from_good_parts: 1,
          job_run_id: null,
          kind: 'reject',
          created_by: null,
          created_at: now,
        })
        .execute(),
    );
    const sourceId = crypto.randomUUID();
    await expectAfter('data source added', () =>
      a.scope
        .insertInto(
          'machine_sources',
          machineSourceRow({ id: sourceId, machine_id: a.machine, kind: 'shdr' }),
        )
        .execute(),
    );
    await expectAfter('data source disabled', () =>
      a.scope.updateTable('machine_sources').set({ enabled: 0 }).where('id', '=', sourceId).execute(),
    );
    // Ingest adds to a source's counters every batch: nothing the dashboard shows.
    await expectAfter(
      'source counters',
      () =>
        a.scope
          .updateTable('machine_sources')
          .set({ stat_lines: 5, last_line_at: now })
          .where('id', '=', sourceId)
          .execute(),
      false,
    );
    await expectAfter('adapter field', () =>
      a.scope
        .insertInto('adapter_fields', {
          id: crypto.randomUUID(),
          adapter_id: adapterId,
          name: 'execution',
          data_item_type: 'EXECUTION',
          data_item_subtype: null,
          component_name: 'path',
          component_type: 'Path',
        })
        .execute(),
    );
    await expectAfter('live row deleted', () =>
      a.scope.deleteFrom('machine_live').where('machine_id', '=', a.machine).execute(),
    );
    // Another company's rows, one of them under A's machine id: B's version moves, A's does not.
    await markRollupsDirty(h.t.db, { companyId: b.company.id, machineId: a.machine, from: now - MIN, now });
    await b.scope
      .updateTable('machine_live')
      .set({ program: 'B1' })
      .where('machine_id', '=', b.machine)
      .execute();
    const [afterA, afterB] = await versions();
    expect(afterA).toBe(seenA);
    expect(afterB).not.toBe(seenB);
  });

  it('shows a data source enabled behind the API’s back on the very next call', async () => {
    const a = await plant();
    const { cookie } = a;
    // Its adapter maps a field: only the data source is missing.
    const adapterId = await createAdapter(
      a.scope,
      {
        name: 'Adapter',
        fields: [
          { name: 'execution', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
        ],
      },
      h.clock.now,
    );
    await a.scope
      .updateTable('machines')
      .set({ adapter_id: adapterId })
      .where('id', '=', a.machine)
      .execute();
    const tiles = async () => {
      const res = await h.get('/api/dashboard', cookie);
      expect(res.status).toBe(200);
      return (await res.json()) as DashboardResponse;
    };
    const before = (await tiles()).machines[0]!.connection;
    expect(before).toBe('NOT CONFIGURED');
    expect((await tiles()).machines[0]!.connection).toBe(before);
    expect(answers.computed).toBe(1);
    // The clock stands still: only the version can tell the kept answer is stale.
    await sql`insert into machine_sources (id, company_id, machine_id, kind, host, port, enabled, stat_lines,
        stat_observations, stat_rejected, created_at)
      values (${crypto.randomUUID()}, ${a.company.id}, ${a.machine}, 'shdr', '10.0.0.2', 7878, 1, 0, 0, 0,
        ${h.clock.now})`.execute(h.t.db);
    const after = (await tiles()).machines[0]!.connection;
    expect(answers.computed).toBe(2);
    expect(after).not.toBe('NOT CONFIGURED');
  });

  it('keeps the version when the generations of backends that are gone are folded (PostgreSQL)', async () => {
    const a = await plant();
    const now = h.clock.now;
    if (dialect === 'postgres')
      // A backend that is gone (no such pid) left a generation of the company.
      await sql`insert into live_generations (company_id, slot, generation)
        values (${a.company.id}, ${2 ** 40}, 7)`.execute(h.t.db);
    const slots = async () =>
      (
        await sql<{ slot: number | string; generation: number | string }>`select slot, generation
          from live_generations where company_id = ${a.company.id} and (slot = 0 or slot = ${2 ** 40})`.execute(
          h.t.db,
        )
      ).rows.map((r) => [Number(r.slot), Number(r.generation)]);
    const version = await liveDataVersion(a.scope, now);
    await foldLiveGenerations(h.t.db);
    expect(await liveDataVersion(a.scope, now)).toBe(version);
    // Folded into slot 0 (SQLite keeps its one row a company there).
    if (dialect === 'postgres') expect(await slots()).toEqual([[0, 7]]);
    await a.scope
      .updateTable('machine_live')
      .set({ program: 'O9' })
      .where('machine_id', '=', a.machine)
      .execute();
    expect(await liveDataVersion(a.scope, now)).not.toBe(version);
  });
});
