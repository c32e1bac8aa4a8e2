import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { HOUR, someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';
import { aJobWithRun } from '../testing/report-plant';

// Issue 27 point 4 (METRICS.md §3, decisions 1002 and 1031): run time of a job without an ideal cycle time is not
// slow. The job report answers null P and OEE ('-' in its CSV, never 0 %) with missing_standards, by job, run,
// machine and shift; a job with a standard and no cycles is slow (P 0 %), without the flag.

/** Monday 2025-11-17 00:00 UTC; the harness clock stands on the following Saturday. */
const D = Date.parse('2025-11-17T00:00:00Z');
const range = { start: D, end: D + 24 * HOUR };
const qs = `start=${range.start}&end=${range.end}`;

interface Figures {
  job_name: string;
  oee: number | null;
  availability: number | null;
  performance: number | null;
  missing_standards: boolean;
}

describe.each(DIALECTS)('job figures without a standard on %s', (dialect) => {
  let h: ApiHarness;
  let cookie: string;
  const job: Record<'bare' | 'standard', string> = { bare: '', standard: '' };

  beforeAll(async () => {
    h = await apiHarness(dialect);
    const company = await aCompany(h.t.db, { timezone: 'UTC' });
    const user = await aUser(h.t.db, company);
    cookie = await h.login(user.email, user.password);
    await aShift(h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    const scope = companyScope(h.t.db, company.id);
    // 06:00–14:00 shift: 4 hours in cycle, 4 idle, on each machine, each running one job all shift.
    for (const [key, name, ideal] of [
      ['bare', 'No standard', 0],
      ['standard', 'With standard', 60_000],
    ] as const) {
      const machine = await aMachine(h.t.db, company, { name: `${name} machine` });
      await someStates(h.t.db, company, machine, [
        [D + 6 * HOUR, D + 10 * HOUR, 'ACTIVE'],
        [D + 10 * HOUR, D + 14 * HOUR, 'INACTIVE'],
      ]);
      job[key] = await aJobWithRun(scope, {
        machineId: machine,
        name,
        expected: 60_000,
        ideal,
        jobCreatedAt: D,
        start: D + 6 * HOUR,
        end: D + 14 * HOUR,
      });
    }
  });
  afterAll(async () => {
    await h.close();
  });

  const get = async <T>(path: string): Promise<T> => {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  };

  it('answers null P and OEE with missing_standards for a job without an ideal cycle time', async () => {
    const { jobs } = await get<{ jobs: Array<Figures & { runs: Figures[] }> }>(
      `/api/reports/warehouse/jobs?${qs}`,
    );
    const bare = jobs.find((j) => j.job_name === 'No standard')!;
    expect(bare).toMatchObject({ performance: null, oee: null, missing_standards: true, availability: 0.5 });
    expect(bare.runs[0]).toMatchObject({ performance: null, oee: null, missing_standards: true });
    // With a standard and no cycles the run is slow: P 0 %, and no warning (OEE null: no parts, no Quality).
    const standard = jobs.find((j) => j.job_name === 'With standard')!;
    expect(standard).toMatchObject({ performance: 0, missing_standards: false });

    const one = await get<{ job: Figures; machines: Figures[]; shifts: Figures[] }>(
      `/api/reports/warehouse/jobs/aggregatedbymachine?${qs}&job_id=${job.bare}`,
    );
    expect(one.job).toMatchObject({ performance: null, oee: null, missing_standards: true });
    expect(one.machines[0]).toMatchObject({ performance: null, missing_standards: true });
    expect(one.shifts).toEqual([
      expect.objectContaining({ shift_name: 'Day', performance: null, oee: null, missing_standards: true }),
    ]);
  });

  it("writes '-' for the null figures in the CSV, never 0 %", async () => {
    const res = await h.get(`/api/reports/warehouse/jobs?${qs}&format=csv`, cookie);
    expect(res.status).toBe(200);
    const [header, ...rows] = (await res.text())
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const col = (name: string) => header!.indexOf(name);
    const row = (jobName: string) => rows.find((r) => r[0] === jobName)!;
    expect(row('No standard')[col('OEE (%)')]).toBe('-');
    expect(row('No standard')[col('Performance (%)')]).toBe('-');
    expect(row('No standard')[col('Availability (%)')]).toBe('50.0');
    expect(row('With standard')[col('Performance (%)')]).toBe('0.0');
  });
});
