import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { markManualStatesDue, recomputeRollups } from '@takt/db/rollups';
import type { OeeReportResponse } from '@takt/domain';
import { aUser } from '../testing/builders';
import { aDowntimeReason, aManualWorkcenter, aRejectReason, MIN } from '../testing/downtime-builders';
import { aJob, aJobMachine } from '../testing/live-builders';
import { apiPerTest, aReportTenant } from '../testing/report-plant';

// Decision 1073 (issue 28): a manual work center (no machine data source) gets its states from the floor's
// evidence: run time between Add Parts up to twice the expected time, longer gaps downtime, idle outside job
// runs, never No data. The OEE report, the downtime report (pareto and CSV), the timeline, the downtime list and
// the tile read the same states, and operator reasons given there count. Both dialects.

const HOUR = 60 * MIN;
/** Local time on Monday 2025-11-03 in America/Chicago (CST, UTC−6). */
const mon = (h: number) => Date.UTC(2025, 10, 3, 6) + h * HOUR;
const NOW = mon(12);

describe.each(DIALECTS)('a manual work center on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  /** A bench with a 10-minute job (ideal 8) and the tablet's commands sent at their times. */
  async function bench() {
    const tenant = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const { company, cookie } = tenant;
    const machineId = await aManualWorkcenter(api.h.t.db, company, 'Bench');
    const jobId = await aJob(api.h.t.db, company, { expectedCycleTime: 10 * MIN, idealCycleTime: 8 * MIN });
    await aJobMachine(api.h.t.db, company, jobId, machineId, {
      expectedCycleTime: 10 * MIN,
      idealCycleTime: 8 * MIN,
    });
    const send = async (type: string, at: number, payload: Record<string, unknown>) => {
      const res = await api.h.send('POST', '/api/sync', cookie, {
        commands: [{ id: crypto.randomUUID(), type, machineId, occurredAt: at, payload }],
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { results: Array<{ status: string; error?: unknown }> };
      expect(body.results[0], JSON.stringify(body.results[0])).toMatchObject({ status: 'applied' });
    };
    const addPartsAt = async (times: number[]) => {
      for (const at of times) await send('manual_add_part', at, { machineId, count: 1 });
    };
    return { ...tenant, machineId, jobId, send, addPartsAt };
  }

  it('reads run time and downtime from the Add Parts, the same on every screen', async () => {
    const b = await bench();
    const waiting = await aDowntimeReason(api.h.t.db, b.company, { name: 'Waiting for material' });
    const scrap = await aRejectReason(api.h.t.db, b.company, { name: 'Bad weld' });
    // 08:00 job started; a part every 10 minutes to 09:00; a pause until 09:50 (of which the operator calls
    // 09:00–09:30 Waiting for material), then the part of 10:00 and one every 10 minutes to 10:50; job stopped
    // at 11:00; one part rejected. Run time 08:00–09:00 and 09:50–11:00 (130 min); downtime 09:00–09:50 and
    // 11:00–12:00 outside the run (110 min); the bench's life starts with its first evidence at 08:00.
    await b.send('start_job', mon(8), { id: b.machineId, jobId: b.jobId, setup: false });
    await b.addPartsAt([1, 2, 3, 4, 5, 6].map((k) => mon(8) + k * 10 * MIN));
    await b.addPartsAt([0, 1, 2, 3, 4, 5].map((k) => mon(10) + k * 10 * MIN));
    await b.send('categorize_downtime', mon(9.5), {
      machineId: b.machineId,
      start: mon(9),
      end: mon(9.5),
      category_id: waiting.id,
    });
    await b.send('reject_part', mon(10.9), {
      machine_id: b.machineId,
      adjustmenttime: mon(10.9),
      category_id: scrap.id,
      scrapcount: 1,
      count: 0,
    });
    await b.send('stop_job', mon(11), { id: b.machineId, jobId: b.jobId });
    await b.recompute([b.machineId], { from: mon(0), to: NOW, now: NOW });

    const range = `start=${mon(0)}&end=${NOW}&machineId=${b.machineId}`;
    const oee = await get<OeeReportResponse>(`/api/reports/oee?${range}`, b.cookie);
    expect(oee.efficiency.availability).toBeCloseTo(130 / 240, 9);
    expect(oee.efficiency.performance).toBeCloseTo((12 * 8) / 130, 9);
    expect(oee.efficiency.quality).toBeCloseTo(11 / 12, 9);
    expect(oee.efficiency.oee).toBeCloseTo((130 / 240) * ((12 * 8) / 130) * (11 / 12), 9);
    expect(oee.waterfall.find((s) => s.key === 'runTime')?.ms).toBe(130 * MIN);

    interface Report {
      summary: { uncategorizedDuration: number; noDataDuration: number; duration: number };
      data: Array<{ reasonId: string; reason: string; duration: number }>;
    }
    const downtime = await get<Report>(`/api/reports/downtime?${range}`, b.cookie);
    expect(downtime.summary).toMatchObject({
      duration: 110 * MIN,
      uncategorizedDuration: 80 * MIN,
      noDataDuration: 0,
    });
    expect(downtime.data.map((d) => [d.reason, d.duration])).toEqual([
      ['Uncategorized', 80 * MIN],
      ['Waiting for material', 30 * MIN],
    ]);
    const csv = await api.h.get(`/api/reports/downtime?${range}&format=csv`, b.cookie);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\n').filter((l) => l.includes('Waiting for material'))).toHaveLength(1);

    interface Lane {
      value: string;
      start: number;
      end: number | null;
    }
    const timeline = await get<{
      cycleEvents: Lane[];
      noDataMs: number;
      monitoredFrom: number;
      parts: Array<{ start: number; duration: number }>;
    }>(`/api/reports/operation?${range}`, b.cookie);
    expect(timeline.noDataMs).toBe(0);
    expect(timeline.monitoredFrom).toBe(mon(8));
    expect(timeline.cycleEvents.map((e) => [e.value, e.start, e.end])).toEqual([
      ['ACTIVE', mon(8), mon(9)],
      ['INACTIVE', mon(9), mon(9) + 50 * MIN],
      ['ACTIVE', mon(9) + 50 * MIN, mon(11)],
      ['INACTIVE', mon(11), null], // open: the current state
    ]);
    // Each Add Part is a part of the parts lane, lasting since the one before it: the one after the pause is slow.
    expect(timeline.parts).toHaveLength(12);
    expect(timeline.parts.find((p) => p.start === mon(10))?.duration).toBe(60 * MIN);

    const list = await get<{ items: Array<{ start: number; duration: number; reason: string | null }> }>(
      `/api/downtime?machineId=${b.machineId}&start=${mon(0)}&end=${NOW}&pinToBounds=true`,
      b.cookie,
    );
    expect(list.items.map((i) => [i.start, i.duration, i.reason])).toEqual([
      [mon(9), 30 * MIN, 'Waiting for material'],
      [mon(9.5), 20 * MIN, null],
      [mon(11), 60 * MIN, null],
    ]);

    const tiles = await get<{
      machines: Array<{ id: string; status: string; statusSince: number | null; stale: boolean }>;
    }>('/api/dashboard', b.cookie);
    expect(tiles.machines.find((m) => m.id === b.machineId)).toMatchObject({
      status: 'INACTIVE',
      statusSince: mon(11),
      stale: false,
    });

    // The boards' figures of the window (the All day shift up to now) are the report's (in percent).
    const boards = await get<Array<{ machineId: string; availability: number | null; noDataMs?: number }>>(
      '/api/dashboard/utilization',
      b.cookie,
    );
    const board = boards.find((r) => r.machineId === b.machineId);
    expect(board?.availability).toBeCloseTo((100 * 130) / 240, 9);
    expect(board?.noDataMs).toBe(0);

    // Another company's user sees none of it.
    const other = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const stranger = await aUser(api.h.t.db, other.company);
    const cookie = await api.h.login(stranger.email, stranger.password);
    expect((await api.h.get(`/api/reports/operation?${range}`, cookie)).status).not.toBe(200);
    expect((await api.h.get(`/api/reports/downtime?${range}`, cookie)).status).not.toBe(200);
    const theirs = await get<{ machines: Array<{ id: string }> }>('/api/dashboard', cookie);
    expect(theirs.machines.map((m) => m.id)).not.toContain(b.machineId);
  });

  it('an open run is active while parts come, and idle from the last part once the gap passes the limit', async () => {
    const b = await bench();
    await b.send('start_job', mon(11), { id: b.machineId, jobId: b.jobId, setup: false });
    await b.addPartsAt([1, 2, 3, 4, 5, 5.5].map((k) => mon(11) + k * 10 * MIN));
    await b.recompute([b.machineId], { from: mon(0), to: NOW, now: NOW });
    const tile = async () =>
      (
        await get<{ machines: Array<{ id: string; status: string; statusSince: number | null }> }>(
          '/api/dashboard',
          b.cookie,
        )
      ).machines.find((m) => m.id === b.machineId);
    expect(await tile()).toMatchObject({ status: 'ACTIVE', statusSince: mon(11) });
    // Nothing is due yet: the limit is 20 minutes after the last part.
    expect(await markManualStatesDue(api.h.t.db, NOW)).toBe(0);

    // 30 minutes later, still no part: the rollup worker's review marks it, the recompute reads the gap as idle.
    const later = NOW + 30 * MIN;
    api.h.clock.now = later;
    expect(await markManualStatesDue(api.h.t.db, later)).toBe(1);
    await recomputeRollups(api.h.t.db, {
      companyId: b.company.id,
      machineId: b.machineId,
      from: NOW - 5 * MIN,
      to: later,
      now: later,
    });
    expect(await tile()).toMatchObject({ status: 'INACTIVE', statusSince: NOW - 5 * MIN });
    expect(await markManualStatesDue(api.h.t.db, later)).toBe(0);
    const oee = await get<OeeReportResponse>(
      `/api/reports/oee?start=${mon(0)}&end=${later}&machineId=${b.machineId}`,
      b.cookie,
    );
    expect(oee.efficiency.availability).toBeCloseTo(55 / 90, 9);
  });
});
