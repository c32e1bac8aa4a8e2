import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EARLIEST_TIME_MS, REPORT_SPAN_TOO_LONG } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { markRollupsDirty } from '@takt/db/rollups';
import { apiHarness } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aMachine, aUser } from '../../services/api/src/testing/builders';
import { OCCURRED_TOO_EARLY } from '../../services/api/src/services/sync';
import { MARK_SPAN_PER_RUN_MS, RollupWorker } from '../../services/ingest/src/worker/rollup';

// Issue 26, bounded times (decisions 0980, 0981): finding 1 (a year-1 part adjustment or gateway line, and the
// dirty mark it leaves), finding 4 (the utilization report over 1970→now or year 1→now), and from finding 8 a
// sync command dated 1970 and a late gateway record below the highest sequence seen. The probe's requests.

const TOKEN = 'metrics-token-for-time-bounds';
const DAY = 86_400_000;
const YEAR_1 = -62135596800000;

type Issue = { field: string; code: string; message: string };
const errorOf = async (res: Response) =>
  (await res.json()) as { error: { code: string; message: string; issues?: Issue[] } };

describe.each(DIALECTS)('bounded times on %s', (dialect) => {
  let h: ApiHarness;
  let admin: Awaited<ReturnType<ApiHarness['tenant']>>;
  let machineId: string;
  beforeAll(async () => {
    h = await apiHarness(dialect, undefined, { metricsToken: TOKEN });
    admin = await h.tenant();
    machineId = await aMachine(h.t.db, admin.company, { name: 'Mill' });
  });
  afterAll(async () => {
    await h.close();
  });

  const refused = async (source: string) => {
    const text = await (
      await h.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    const line = text.split('\n').find((l) => l.startsWith(`takt_times_refused_total{source="${source}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };
  const countOf = async (table: 'part_adjustments' | 'observations' | 'sync_commands' | 'ingest_inbox') =>
    Number(
      (
        await h.t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('machine_id', '=', machineId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a part adjustment dated year 1, -1 or 0 (400, nothing stored, counted)', async () => {
    const before = await refused('api');
    for (const adjustmenttime of [YEAR_1, -1, 0]) {
      const res = await h.send('POST', '/api/partadjustment', admin.cookie, {
        machine_id: machineId,
        adjustmenttime,
        count: 1,
        scrap: false,
      });
      expect(res.status).toBe(400);
      const { error } = await errorOf(res);
      expect(error.issues).toContainEqual({
        field: 'adjustmenttime',
        code: 'time_window',
        message: 'adjustmenttime must not be before 2014-04-01',
      });
    }
    expect(await countOf('part_adjustments')).toBe(0);
    expect((await rollupMarks()).length).toBe(0);
    expect(await refused('api')).toBe(before + 3);
  });

  it('refuses the utilization report over 1970→now and year 1→now to a reports:read key, and over 3 years', async () => {
    const key = await h.send('POST', '/api/apikeys', admin.cookie, {
      name: 'Reports',
      scopes: ['reports:read'],
    });
    expect(key.status).toBe(201);
    const { accessToken } = z.object({ accessToken: z.string() }).parse(await key.json());
    const report = (start: number, end: number) =>
      h.app.request(`/api/reports/utilization?start=${start}&end=${end}&interval=day`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
    const now = h.clock.now;
    for (const start of [0, YEAR_1]) {
      const res = await report(start, now);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).error.issues?.[0]).toMatchObject({
        field: 'start',
        message: 'start must not be before 2014-04-01',
      });
    }
    const long = await report(now - 3 * 365 * DAY, now);
    expect(long.status).toBe(400);
    expect((await errorOf(long)).error.issues?.[0]).toMatchObject({
      field: 'end',
      message: REPORT_SPAN_TOO_LONG,
    });
    expect((await report(now - 7 * DAY, now)).status).toBe(200);
  });

  it('rejects a sync command dated 1970 with a clear text, and stores nothing of it', async () => {
    const before = await refused('sync');
    const id = crypto.randomUUID();
    const res = await h.send('POST', '/api/sync', admin.cookie, {
      commands: [
        {
          id,
          type: 'part_correction',
          machineId,
          occurredAt: Date.UTC(1970, 0, 2),
          payload: { machine_id: machineId, count: 1 },
        },
      ],
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as {
      results: Array<{ id: string; status: string; error?: { code: string; message: string } }>;
    };
    expect(results).toEqual([
      expect.objectContaining({
        id,
        status: 'rejected',
        error: expect.objectContaining({ code: 'OCCURRED_TOO_EARLY', message: OCCURRED_TOO_EARLY }),
      }),
    ]);
    expect(await countOf('part_adjustments')).toBe(0);
    expect(await refused('sync')).toBe(before + 1);
  });

  describe('gateway pushes', () => {
    let token: string;
    let gatewayId: string;
    beforeAll(async () => {
      const root = await aUser(h.t.db, admin.company, { isRoot: true });
      const cookie = await h.login(root.email, root.password);
      const made = await h.send('POST', '/api/gateways', cookie, {
        name: 'Edge',
        companyId: admin.company.id,
      });
      expect(made.status).toBe(201);
      const body = (await made.json()) as { gateway: { id: string }; token: string };
      token = body.token;
      gatewayId = body.gateway.id;
      const bind = await h.send('POST', `/api/gateways/${body.gateway.id}/machines`, cookie, {
        machineId,
        machineRef: 'mill-1',
      });
      expect(bind.status).toBe(201);
    });
    const push = async (records: Array<{ seq: number; line: string }>) => {
      const res = await h.app.request('/api/gateway-push', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ gatewayId, records: records.map((r) => ({ ...r, machineRef: 'mill-1' })) }),
      });
      return res;
    };
    const at = (offsetMs: number) => new Date(h.clock.now + offsetMs).toISOString();

    it('refuses and counts lines dated year 1 and 9999, and keeps the rest of the push', async () => {
      const before = await refused('gateway');
      const observations = await countOf('observations');
      const res = await push([
        { seq: 1, line: '0001-01-01T00:00:00Z|execution|ACTIVE' },
        { seq: 2, line: `${at(-60_000)}|execution|ACTIVE|part_count|4` },
        { seq: 3, line: '9999-12-31T23:59:59Z|execution|STOPPED' },
      ]);
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { ack: number; stored: number; timeRefused: number };
      expect(answer).toMatchObject({ ack: 3, stored: 1, timeRefused: 2 });
      expect(await countOf('observations')).toBe(observations + 2);
      const stored = await h.t.db
        .selectFrom('observations')
        .select('ts')
        .where('machine_id', '=', machineId)
        .execute();
      expect(stored.every((o) => Number(o.ts) >= EARLIEST_TIME_MS && Number(o.ts) <= h.clock.now)).toBe(true);
      expect(await refused('gateway')).toBe(before + 2);
    });

    it('stores a late record below the highest sequence once; a repeat of a stored one stays ignored', async () => {
      expect(
        (await (await push([{ seq: 10, line: `${at(-50_000)}|part_count|5` }])).json()) as object,
      ).toMatchObject({ ack: 10, stored: 1 });
      const inbox = await countOf('ingest_inbox');
      // Sequence 7 never came before: the edge sends it late, below the highest stored sequence (10).
      const late = await push([{ seq: 7, line: `${at(-55_000)}|part_count|6` }]);
      expect((await late.json()) as object).toMatchObject({ ack: 10, stored: 1, duplicates: 0 });
      expect(await countOf('ingest_inbox')).toBe(inbox + 1);
      for (const seq of [7, 10, 2]) {
        const again = await push([{ seq, line: `${at(-55_000)}|part_count|6` }]);
        expect((await again.json()) as object).toMatchObject({ ack: 10, stored: 0, duplicates: 1 });
      }
      expect(await countOf('ingest_inbox')).toBe(inbox + 1);
    });
  });

  async function rollupMarks() {
    return h.t.db.selectFrom('rollup_dirty').selectAll().where('machine_id', '=', machineId).execute();
  }

  it('recomputes a stored year-1 dirty mark from the floor in a bounded slice and drops a 9999 one', async () => {
    const other = await aMachine(h.t.db, admin.company, { name: 'Lathe' });
    await h.t.db
      .insertInto('rollup_dirty')
      .values([
        {
          machine_id: machineId,
          company_id: admin.company.id,
          from_at: YEAR_1,
          marked_at: 1,
          claimed_until: null,
        },
        {
          machine_id: other,
          company_id: admin.company.id,
          from_at: Date.UTC(9999, 0, 1),
          marked_at: 2,
          claimed_until: null,
        },
      ])
      .execute();
    const logged: string[] = [];
    const now = h.clock.now;
    const worker = new RollupWorker(
      h.t.db,
      () => now,
      (m) => logged.push(m),
      dialect === 'postgres',
    );
    await worker.run();
    // The 9999 mark had nothing to recompute: gone. The year-1 mark was recomputed from 2014-04-01 for one
    // run's share and goes on from there in the next run.
    const marks = await h.t.db.selectFrom('rollup_dirty').selectAll().execute();
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      [machineId, EARLIEST_TIME_MS + MARK_SPAN_PER_RUN_MS],
    ]);
    const span = await h.t.db
      .selectFrom('rollups')
      .select((eb) => [eb.fn.min<number>('start_at').as('first'), eb.fn.max<number>('end_at').as('last')])
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    expect(Number(span.first)).toBeGreaterThanOrEqual(EARLIEST_TIME_MS - DAY);
    expect(Number(span.last)).toBeLessThanOrEqual(EARLIEST_TIME_MS + MARK_SPAN_PER_RUN_MS + 2 * DAY);
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).toMatch(
      /must not be before 2014-04-01 \(-62135596800000\): recomputed from 1396310400000/,
    );
    expect(logged.join('\n')).toMatch(/must not be more than a year ahead \(253370764800000\): dropped/);
    expect((await h.app.request('/healthz')).status).toBe(200);
  });

  it('goes on with a long mark from where it got to, through live renewals, and never skips an earlier renewal', async () => {
    const lathe = await aMachine(h.t.db, admin.company, { name: 'Grinder' });
    const now = h.clock.now;
    const worker = new RollupWorker(
      h.t.db,
      () => now,
      () => {},
      dialect === 'postgres',
    );
    const mark = (from: number, markedAt: number) =>
      markRollupsDirty(h.t.db, { companyId: admin.company.id, machineId: lathe, from, now: markedAt });
    const fromOf = async () =>
      (
        await h.t.db.selectFrom('rollup_dirty').select('from_at').where('machine_id', '=', lathe).execute()
      ).map((r) => Number(r.from_at));
    const start = now - 90 * DAY;
    await mark(start, 1);
    await worker.run();
    expect(await fromOf()).toEqual([start + MARK_SPAN_PER_RUN_MS]);
    // Live data renews the mark at now: the next run goes on from where the last one stopped.
    await mark(now - 60_000, 2);
    await worker.run();
    expect(await fromOf()).toEqual([start + 2 * MARK_SPAN_PER_RUN_MS]);
    // A late fact before that point renews it earlier: the next run starts there.
    await mark(start + 10 * DAY, 3);
    expect(await fromOf()).toEqual([start + 10 * DAY]);
    for (let run = 0; run < 4; run++) await worker.run();
    expect(await fromOf()).toEqual([]);
  });
});
