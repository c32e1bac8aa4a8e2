import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import {
  aJobRun,
  anAnnotation,
  aRejectReason,
  aTenantWithMachine,
  HOUR,
  MIN,
  someStates,
} from '../testing/downtime-builders';
import { aSetupStage, errorOf } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';
import { madeParts } from '../testing/parts-builders';
import { BOUND_ELSEWHERE } from './tablet-binding';

// Decision 0500 "Consequences": calls that name only a record id are held to the record's machine. A tablet
// bound to machine A is refused (403 TABLET_BOUND) on every such call for a record of machine B, and the
// record stays as it was; the same call for A's record goes through.

describe.each(DIALECTS)('tablet binding by record id on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  /** Machines A (the tablet's) and B with a reject, a categorized downtime and an open job run each. */
  async function plant() {
    const me = await aTenantWithMachine(h, { machine: { name: 'A' } });
    const a = me.machineId;
    const b = await aMachine(h.t.db, me.company, { name: 'B' });
    const reason = await aRejectReason(h.t.db, me.company, { reject_behavior: 'scrap' });
    const tablet = await aTablet(h.t.db, me.company, a, T);
    const records = async (machineId: string) => {
      await someStates(h.t.db, me.company, machineId, [
        [T - 4 * HOUR, T - 2 * HOUR, 'ACTIVE'],
        [T - 2 * HOUR, T - HOUR, 'INACTIVE'],
        [T - HOUR, null, 'ACTIVE'],
      ]);
      const annotation = await anAnnotation(h.t.db, me.company, { machineId, start: T - 2 * HOUR });
      await aJobRun(h.t.db, me.company, machineId, { start: T - 3 * HOUR });
      await madeParts(h.t.db, me.company, machineId, T - 20 * MIN);
      const run = await runOf(me.company, machineId);
      const reject = await h.send('POST', '/api/partadjustment', me.cookie, {
        scrap: true,
        adjustmenttime: T - 10 * MIN,
        machine_id: machineId,
        category_id: reason.id,
        scrapcount: 1,
      });
      expect(reject.status, await reject.clone().text()).toBe(201);
      const { id } = (await reject.json()) as { id: string };
      return { annotation, run, adjustment: id };
    };
    return { ...me, a, b, tablet, onA: await records(a), onB: await records(b) };
  }

  const runOf = async (company: Company, machineId: string) =>
    (
      await companyScope(h.t.db, company.id)
        .selectFrom('job_runs')
        .select('id')
        .where('machine_id', '=', machineId)
        .executeTakeFirstOrThrow()
    ).id;

  async function refused(res: Response) {
    expect(res.status, await res.clone().text()).toBe(403);
    expect(await errorOf(res)).toEqual({ code: 'TABLET_BOUND', message: BOUND_ELSEWHERE });
  }
  async function allowed(res: Response) {
    const text = await res.clone().text();
    expect(text, text).not.toContain('TABLET_BOUND');
  }

  it('PUT and DELETE /api/partadjustment/:id', async () => {
    const { tablet, onA, onB, company } = await plant();
    await refused(
      await h.send('PUT', `/api/partadjustment/${onB.adjustment}`, tablet.cookie, { scrapcount: 2 }),
    );
    await refused(await h.send('DELETE', `/api/partadjustment/${onB.adjustment}`, tablet.cookie));
    const row = await companyScope(h.t.db, company.id)
      .selectFrom('part_adjustments')
      .select('scrapcount')
      .where('id', '=', onB.adjustment)
      .executeTakeFirst();
    expect(row).toEqual({ scrapcount: 1 });
    const put = await h.send('PUT', `/api/partadjustment/${onA.adjustment}`, tablet.cookie, {
      scrapcount: 2,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await h.send('DELETE', `/api/partadjustment/${onA.adjustment}`, tablet.cookie)).status).toBe(200);
  });

  it('annotation update, save, split, merge and reset by id', async () => {
    const { tablet, a, onA, onB } = await plant();
    await refused(await h.send('PUT', `/api/annotations/${onB.annotation}`, tablet.cookie, { message: 'x' }));
    // The body names the tablet's own machine, the id another machine's annotation.
    await refused(
      await h.send('POST', '/api/annotations', tablet.cookie, {
        id: onB.annotation,
        machineId: a,
        start: T - 2 * HOUR,
        category_id: null,
        setup: true,
      }),
    );
    await refused(await h.send('POST', `/api/annotations/${onB.annotation}/split`, tablet.cookie));
    await refused(await h.send('POST', `/api/annotations/${onB.annotation}/merge`, tablet.cookie));
    await refused(await h.send('DELETE', `/api/annotations/${onB.annotation}`, tablet.cookie));
    await allowed(await h.send('PUT', `/api/annotations/${onA.annotation}`, tablet.cookie, { message: 'x' }));
    await allowed(await h.send('POST', `/api/annotations/${onA.annotation}/split`, tablet.cookie));
  });

  it('job stop and setup calls by jsgId or laborActivitySetId', async () => {
    const { company, tablet, a, onA, onB } = await plant();
    const stage = await aSetupStage(h.t.db, company);
    await refused(
      await h.send('POST', '/api/dispatch/stop', tablet.cookie, {
        id: a,
        jobId: 'j',
        laborActivitySetId: onB.run,
      }),
    );
    await refused(await h.get(`/api/setup/parts?jsgId=${onB.run}&machineId=${a}`, tablet.cookie));
    await refused(
      await h.send('POST', '/api/setup/transition', tablet.cookie, {
        laborActivitySetId: onB.run,
        setupStageId: stage,
      }),
    );
    await refused(await h.send('POST', '/api/setup/end', tablet.cookie, { jsgId: onB.run, machineId: a }));
    await allowed(await h.get(`/api/setup/parts?jsgId=${onA.run}&machineId=${a}`, tablet.cookie));
    await allowed(
      await h.send('POST', '/api/setup/transition', tablet.cookie, {
        laborActivitySetId: onA.run,
        setupStageId: stage,
      }),
    );
  });

  it('operator run stop and job machine save name the machine', async () => {
    const { tablet, a, b } = await plant();
    await refused(await h.send('POST', '/api/operatorruns/stop', tablet.cookie, { machineId: b }));
    await refused(
      await h.send('POST', '/api/jobmachines', tablet.cookie, {
        job_id: 'j',
        job_machine: { machine_id: b },
      }),
    );
    await allowed(await h.send('POST', '/api/operatorruns/stop', tablet.cookie, { machineId: a }));
  });

  it('an unbound tablet and a user act on any machine’s records', async () => {
    const { company, cookie, onB } = await plant();
    const free = await aTablet(h.t.db, company, null, T);
    await allowed(await h.send('PUT', `/api/annotations/${onB.annotation}`, free.cookie, { message: 'y' }));
    const put = await h.send('PUT', `/api/partadjustment/${onB.adjustment}`, cookie, { scrapcount: 3 });
    expect(put.status).toBe(200);
  });
});
