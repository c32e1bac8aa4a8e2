import {
  computeDemoRollups,
  demoAdapterFields,
  demoPlantProfile,
  planDemoHistory,
  playDemoHistory,
} from '@takt/ingest';
import type { ProductionResponse } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { demoMachinePrograms, makeDemoHistory } from './demo-history';
import { demoManualStations, recordDemoManualHistory } from './demo-history-manual';
import { inProcessBus } from './live/bus';
import { DEMO_LOGINS, ensureDemoCompany } from './provision';
import { apiPerTest } from './testing/report-plant';

// Issue 28 point 1 (decision 1035): the demo plant's past, made by the simulator's scripts through the ingest
// engine and the floor's sync commands, read back through the report API. Two days of three machines (two
// mills, a lathe) keep it short; the figures must look like a job shop's.

const NOW = Date.UTC(2026, 10, 18, 19, 30);
const DAY = 86_400_000;
const START = NOW - 2 * DAY;

describe.each(DIALECTS)('the demo plant history on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('two days of three machines: OEE 40–85 % each, several downtime reasons, parts and rejects', async () => {
    const { db } = api.h.t;
    const plant = await ensureDemoCompany(db, {
      portBase: 7000,
      seed: 20261122,
      adapterFields: demoAdapterFields(),
      now: NOW,
    });
    const machines = [plant[0]!, plant[2]!, plant[6]!];
    const programs = await demoMachinePrograms(
      db,
      machines.map((m) => m.machineId),
    );
    const profiled = machines.map((m) => ({ ...m, profile: demoPlantProfile(programs.get(m.machineId)!) }));
    const said: string[] = [];
    const resume = await makeDemoHistory(db, {
      days: 2,
      now: () => NOW,
      bus: inProcessBus(),
      machines: profiled,
      programs,
      engine: { plan: planDemoHistory, play: playDemoHistory, rollups: computeDemoRollups },
      say: (m) => said.push(m),
    });
    // Progress is printed, and each machine's script goes on from the history's end.
    expect(said.some((m) => m.includes('machine data 3/3'))).toBe(true);
    // The manual bench's operators are played too (decision 1073).
    expect(said.some((m) => m.includes('manual work centers'))).toBe(true);
    expect(said.join('\n')).not.toContain('refused');
    for (const m of machines) expect(resume.get(m.machineId)?.next.at).toBeGreaterThanOrEqual(NOW);

    const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
    const cookie = await api.h.login(admin.email, admin.password);
    const res = await api.h.send('POST', '/api/reports/warehouse/production', cookie, {
      start: START,
      end: NOW,
      data: ['oee', 'availability', 'performance', 'quality'],
      filter: { machine: machines.map((m) => m.machineId) },
      groupBy: ['machine'],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const production = (await res.json()) as ProductionResponse;
    expect(production.items).toHaveLength(3);
    for (const item of production.items) {
      const figures = `${item.machine}: ${JSON.stringify(item)}`;
      expect(item.oee, figures).toBeGreaterThanOrEqual(0.4);
      expect(item.oee, figures).toBeLessThanOrEqual(0.85);
      expect(item.performance, figures).toBeLessThanOrEqual(1);
      expect(item.quality, figures).toBeLessThan(1);
    }

    const downtime = await api.h.get(`/api/reports/downtime?start=${START}&end=${NOW}`, cookie);
    expect(downtime.status).toBe(200);
    const pareto = ((await downtime.json()) as { data: Array<{ reason: string; duration: number }> }).data;
    const reasons = pareto.map((p) => p.reason);
    expect(reasons).toContain('Uncategorized');
    expect(reasons.filter((r) => r !== 'Uncategorized' && r !== 'No data').length).toBeGreaterThanOrEqual(3);
    // The link drops now and then for minutes, never for hours (the machines report all the time).
    const noData = pareto.find((p) => p.reason === 'No data')?.duration ?? 0;
    expect(noData).toBeLessThan(0.02 * 3 * 2 * DAY);

    let total = 0;
    let rejected = 0;
    for (const m of machines) {
      const cycles = await api.h.get(
        `/api/reports/cycles?start=${START}&end=${NOW}&machineId=${m.machineId}`,
        cookie,
      );
      expect(cycles.status).toBe(200);
      const { parts } = (await cycles.json()) as { parts: { total: number; rejected: number } };
      expect(parts.total).toBeGreaterThan(100);
      total += parts.total;
      rejected += parts.rejected;
    }
    expect(rejected).toBeGreaterThan(0);
    expect(rejected / total).toBeLessThan(0.05);
  }, 60_000);

  it('two days of the manual assembly bench: Add Part counts by its jobs, pause reasons and rejects', async () => {
    const { db } = api.h.t;
    await ensureDemoCompany(db, {
      portBase: 7000,
      seed: 20261122,
      adapterFields: demoAdapterFields(),
      now: NOW,
    });
    const stations = await demoManualStations(db);
    expect(stations.size).toBe(1);
    const [bench] = [...stations.keys()] as [string];
    const made = await recordDemoManualHistory(db, {
      bus: inProcessBus(),
      now: NOW,
      from: START,
      to: NOW,
      seed: 20261122,
      stations,
    });
    expect(made.errors).toEqual([]);
    expect(made.failures).toBe(0);
    expect(made.runs).toBeGreaterThanOrEqual(2);
    expect(made.annotations).toBeGreaterThan(0);
    expect(made.rejects).toBeGreaterThan(0);
    await computeDemoRollups(
      db,
      () => NOW,
      () => {},
    );

    const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
    const cookie = await api.h.login(admin.email, admin.password);
    const res = await api.h.send('POST', '/api/reports/warehouse/production', cookie, {
      start: START,
      end: NOW,
      data: ['oee', 'availability', 'performance', 'quality', 'allTime'],
      filter: { machine: [bench] },
      groupBy: ['machine'],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const [item] = ((await res.json()) as ProductionResponse).items;
    // Decision 1073: the bench's monitored life starts at its first evidence, minutes into the first shift; its
    // run time comes from its Add Parts, so it reads as a job shop's bench does.
    const figures = JSON.stringify(item);
    expect(item?.allTime, figures).toBeGreaterThan(1.5 * DAY);
    expect(item?.allTime, figures).toBeLessThan(2 * DAY);
    expect(item?.quality, figures).toBeLessThan(1);
    expect(item?.performance, figures).toBeLessThanOrEqual(1);
    expect(item?.oee, figures).toBeGreaterThanOrEqual(0.4);
    expect(item?.oee, figures).toBeLessThanOrEqual(0.85);
    // Its pauses are downtime under the operators' reasons, never No data.
    const downtime = await api.h.get(
      `/api/reports/downtime?start=${START}&end=${NOW}&machineId=${bench}`,
      cookie,
    );
    expect(downtime.status).toBe(200);
    const pareto = ((await downtime.json()) as { data: Array<{ reason: string }> }).data.map((p) => p.reason);
    expect(pareto).not.toContain('No data');
    expect(pareto.filter((r) => r !== 'Uncategorized').length).toBeGreaterThanOrEqual(2);
    const cycles = await api.h.get(
      `/api/reports/cycles?start=${START}&end=${NOW}&machineId=${bench}`,
      cookie,
    );
    expect(cycles.status).toBe(200);
    const { parts } = (await cycles.json()) as { parts: { total: number; rejected: number } };
    // Add Part counts the run's step: a kit of 3 (Gearbox Kit GK-3) counts 3.
    expect(parts.total).toBeGreaterThan(made.counts);
    expect(parts.rejected).toBeGreaterThan(0);
    expect(parts.rejected / parts.total).toBeLessThan(0.05);
  });
});
