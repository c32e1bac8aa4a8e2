import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_TIMEOUT_MS } from '@takt/domain';
import { companyScope, runRawRetention } from '@takt/db';
import { createAdapter } from '../repositories/adapters';
import { createShdrSource } from '../repositories/machine-sources';
import type { Company } from '../repositories/company';
import { latestPerKey, latestPerKeyQuery } from '../repositories/diagnostics';
import { createMachine } from '../repositories/machines';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';

const DAY = 24 * 3_600_000;

interface Diagnostics {
  connection: string | number;
  lastHeartbeat: number | null;
  fields: Array<{ key: string; value: string | null; ts: number | null; dataItemType: string | null }>;
  unmapped: string[];
  counters: { lines: number; observations: number; rejected: number; lastLineAt: number | null };
}

describe.each(DIALECTS)('machine diagnostics on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function configuredMachine(company: Company) {
    const scope = companyScope(h.t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      {
        name: 'Mill',
        fields: [
          { name: 'exec', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
          { name: 'pc', dataItemType: 'PART_COUNT', componentName: 'path', componentType: 'Path' },
          { name: 'mode', dataItemType: 'CONTROLLER_MODE', componentName: 'path', componentType: 'Path' },
        ],
      },
      1,
    );
    return createMachine(scope, { name: 'Mill 1', adapterId }, 1);
  }

  const observe = (company: Company, machineId: string, rows: Array<[number, string, string | null]>) =>
    h.t.db
      .insertInto('observations')
      .values(
        rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machineId, ts, key, value })),
      )
      .execute();

  const heartbeat = (company: Company, machineId: string, at: number) =>
    h.t.db
      .insertInto('machine_live')
      .values({
        machine_id: machineId,
        company_id: company.id,
        state: 'ACTIVE',
        state_since: at,
        connection: 'CONNECTED',
        connection_since: at,
        last_heartbeat: at,
        in_setup: 0,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['machine_id', 'company_id']).doUpdateSet({ last_heartbeat: at }))
      .execute();

  const diagnostics = async (cookie: string, machineId: string) => {
    const res = await h.get(`/api/machines/${machineId}/diagnostics`, cookie);
    expect(res.status).toBe(200);
    return (await res.json()) as Diagnostics;
  };

  it('answers NOT CONFIGURED for a machine without adapter fields, and lists every key it sent as unmapped', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMachine(h.t.db, company);
    const now = h.clock.now;
    await observe(company, machineId, [
      [now - 5000, 'exec', 'ACTIVE'],
      [now - 1000, 'exec', 'READY'],
    ]);
    await heartbeat(company, machineId, now);
    const d = await diagnostics(cookie, machineId);
    expect(d.connection).toBe('NOT CONFIGURED');
    expect(d.fields).toEqual([{ key: 'exec', value: 'READY', ts: now - 1000, dataItemType: null }]);
    expect(d.unmapped).toEqual(['exec']);
  });

  it('goes CONNECTING → last heartbeat → DISCONNECTED after 5 minutes without one', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await configuredMachine(company);
    // Without a data source it is not configured (decision 1055); with one, connecting until it reports.
    expect((await diagnostics(cookie, machineId)).connection).toBe('NOT CONFIGURED');
    await createShdrSource(companyScope(h.t.db, company.id), { machineId, host: 'h', port: 7878 }, 1);
    expect((await diagnostics(cookie, machineId)).connection).toBe('CONNECTING');
    const at = h.clock.now;
    await observe(company, machineId, [[at, 'exec', 'READY']]);
    await heartbeat(company, machineId, at);
    expect(await diagnostics(cookie, machineId)).toMatchObject({ connection: at, lastHeartbeat: at });
    h.clock.now += HEARTBEAT_TIMEOUT_MS;
    expect((await diagnostics(cookie, machineId)).connection).toBe(at);
    h.clock.now += 1;
    expect((await diagnostics(cookie, machineId)).connection).toBe('DISCONNECTED');
  });

  it('shows the latest value per key of the last 24 h, mapped or not, and the counters', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await configuredMachine(company);
    const now = h.clock.now;
    await observe(company, machineId, [
      [now - 25 * 3_600_000, 'ancient', 'x'],
      [now - 25 * 3_600_000, 'mode', 'MANUAL'],
      [now - 3_000, 'exec', 'ACTIVE'],
      [now - 1_000, 'exec', 'STOPPED'],
      [now - 2_000, 'exec', 'READY'],
      [now - 500, 'pc', '41'],
      [now - 400, 'Xload', '12.5'],
      [now - 300, 'system', 'FAULT|E1|2||Overtravel'],
      [now - 200, '@connection', 'CONNECTED'],
      [now - 100, 'door', null],
    ]);
    // Another machine's and another company's rows never show.
    const other = await aMachine(h.t.db, company);
    await observe(company, other, [[now, 'exec', 'OTHER']]);
    const scope = companyScope(h.t.db, company.id);
    const sourceId = await createShdrSource(scope, { machineId, host: 'h', port: 7878 }, 1);
    await h.t.db
      .updateTable('machine_sources')
      .set({ stat_lines: 10, stat_observations: 25, stat_rejected: 2, last_line_at: now - 100 })
      .where('id', '=', sourceId)
      .execute();

    const d = await diagnostics(cookie, machineId);
    expect(d.fields).toEqual([
      { key: 'Xload', value: '12.5', ts: now - 400, dataItemType: null },
      { key: 'door', value: null, ts: now - 100, dataItemType: null },
      { key: 'exec', value: 'STOPPED', ts: now - 1000, dataItemType: 'EXECUTION' },
      // Mapped, but not heard from in 24 h.
      { key: 'mode', value: null, ts: null, dataItemType: 'CONTROLLER_MODE' },
      { key: 'pc', value: '41', ts: now - 500, dataItemType: 'PART_COUNT' },
      { key: 'system', value: 'FAULT|E1|2||Overtravel', ts: now - 300, dataItemType: null },
    ]);
    expect(d.unmapped).toEqual(['Xload', 'door', 'system']);
    expect(d.counters).toEqual({ lines: 10, observations: 25, rejected: 2, lastLineAt: now - 100 });
  });

  it('reads the same after raw retention: the last 24 h, and a machine that reported only before the floor', async () => {
    const { company, cookie } = await h.tenant();
    const scope = companyScope(h.t.db, company.id);
    const now = h.clock.now;
    const recent = await configuredMachine(company);
    const silent = await configuredMachine(company);
    for (const machineId of [recent, silent])
      await createShdrSource(scope, { machineId, host: 'h', port: 7878 }, 1);
    await observe(company, recent, [
      [now - 40 * DAY, 'exec', 'READY'],
      [now - 3_600_000, 'pc', '5'],
    ]);
    await observe(company, silent, [[now - 40 * DAY, 'exec', 'ACTIVE']]);
    const before = await Promise.all([diagnostics(cookie, recent), diagnostics(cookie, silent)]);
    // Decision 1132: 35 days kept; the rows 40 days old go, each key's last value stays as a seed.
    const pass = await runRawRetention(h.t.db, 35, now);
    expect(pass.floor).toBeGreaterThan(now - 40 * DAY);
    expect(await latestPerKey(scope, silent, 0)).toEqual([]);
    const after = await Promise.all([diagnostics(cookie, recent), diagnostics(cookie, silent)]);
    expect(after).toEqual(before);
    expect(after[1].connection).not.toBe('CONNECTING');
  });

  it('does not show another company’s machine (404)', async () => {
    const { cookie } = await h.tenant();
    const other = await aCompany(h.t.db);
    const theirs = await configuredMachine(other);
    expect((await h.get(`/api/machines/${theirs}/diagnostics`, cookie)).status).toBe(404);
    expect((await h.get('/api/machines/nope/diagnostics', cookie)).status).toBe(404);
    expect((await h.get(`/api/machines/${theirs}/diagnostics`, '')).status).toBe(401);
  });

  it('reads the latest values through the (machine, ts) key of the stored rows', async () => {
    const { company } = await h.tenant();
    const machineId = await configuredMachine(company);
    const scope = companyScope(h.t.db, company.id);
    expect(await latestPerKey(scope, machineId, 0)).toEqual([]);
    // The plan of the very query latestPerKey runs.
    const compiled = latestPerKeyQuery(scope, machineId, 0).compile();
    if (dialect === 'sqlite') {
      const explained = await h.t.db.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
      });
      // observation_rows' WITHOUT ROWID key (m, ts, seq), the machine found by its dictionary (decision 1130).
      expect(explained.rows.map((r) => r.detail).join(' ')).toMatch(
        /SEARCH o USING PRIMARY KEY \(m=\? AND ts>\?\)/,
      );
    } else {
      // The test table is tiny, so PostgreSQL would scan it whole; forbid that to see the index path.
      await h.t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({
          ...compiled,
          sql: `explain ${compiled.sql}`,
        });
        // Each day partition's (m, ts) index (decisions 1130, 1131).
        expect(explained.rows.map((r) => r['QUERY PLAN']).join(' ')).toMatch(/observation_rows_\w+_m_ts_idx/);
      });
    }
  });
});
