import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotationTypeSchema, PLANNED_BEHAVIORS } from '@takt/domain';
import { companyScope } from '@takt/db';
import { seedDemoReasons } from '../provision-live-reasons';
import { listAnnotationTypes } from '../repositories/annotation-types';
import { listPartAdjustmentTypes } from '../repositories/part-adjustment-types';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason } from '../testing/downtime-builders';

describe.each(DIALECTS)('annotation type routes on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('lists the reasons, archived ones only with includeHidden', async () => {
    const me = await h.tenant();
    const machineId = await aMachine(h.t.db, me.company);
    await aDowntimeReason(h.t.db, me.company, { name: 'B visible' });
    await aDowntimeReason(h.t.db, me.company, { name: 'A archived', hidden: true });
    const list = await h.read(
      `/api/annotationtypes?machineId=${machineId}`,
      me.cookie,
      annotationTypeSchema.array(),
    );
    expect(list.map((t) => t.name)).toEqual(['B visible']);
    const all = await (await h.get('/api/annotationtypes?includeHidden=true', me.cookie)).json();
    expect(all.map((t: { name: string }) => t.name)).toEqual(['A archived', 'B visible']);
  });

  it('creates reasons with the spec defaults: 5-minute limit (in ms) for plannedWithLimit, colour #828282', async () => {
    const me = await h.tenant();
    const res = await h.send('POST', '/api/annotationtypes', me.cookie, {
      name: ' Tool change ',
      plannedBehavior: 'plannedWithLimit',
    });
    expect(res.status).toBe(201);
    expect(annotationTypeSchema.parse(await res.json())).toMatchObject({
      name: 'Tool change',
      companyId: me.company.id,
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 300_000,
      color: '#828282',
      hidden: false,
    });
    const own = await h.send('POST', '/api/annotationtypes', me.cookie, {
      name: 'Lunch',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 30 * 60_000,
      color: '#00ff00',
    });
    expect(await own.json()).toMatchObject({ plannedLimitMs: 1_800_000, color: '#00ff00' });
    const planned = await h.send('POST', '/api/annotationtypes', me.cookie, {
      name: 'PM',
      plannedBehavior: 'planned',
      plannedLimitMs: 1000,
    });
    expect(await planned.json()).toMatchObject({ plannedLimitMs: null });
  });

  it('refuses a reason without a name with "Downtime reason could not be saved." and the list', async () => {
    const me = await h.tenant();
    const blank = await h.send('POST', '/api/annotationtypes', me.cookie, {
      name: '  ',
      plannedBehavior: 'planned',
    });
    expect(blank.status).toBe(400);
    expect((await blank.json()).error).toMatchObject({
      message: 'Downtime reason could not be saved.',
      issues: [{ field: 'name', message: 'Missing required field: Name' }],
    });
    const bad = await h.send('POST', '/api/annotationtypes', me.cookie, {
      plannedBehavior: 'sometimes',
      color: 'red',
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()).error;
    expect(body.message).toBe('Downtime reason could not be saved.');
    expect(body.issues.map((i: { field: string }) => i.field).sort()).toEqual([
      'color',
      'name',
      'plannedBehavior',
    ]);
    expect(body.issues.find((i: { field: string }) => i.field === 'name').message).toBe(
      'Missing required field: Name',
    );
  });

  it('edits, archives and restores a reason', async () => {
    const me = await h.tenant();
    const r = await aDowntimeReason(h.t.db, me.company, { name: 'Old', plannedBehavior: 'planned' });
    const put = await h.send('PUT', `/api/annotationtypes/${r.id}`, me.cookie, {
      name: 'New',
      plannedBehavior: 'plannedWithLimit',
    });
    expect(await put.json()).toMatchObject({
      name: 'New',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 300_000,
    });
    const archived = await h.send('POST', `/api/annotationtypes/${r.id}/archive`, me.cookie);
    expect(await archived.json()).toMatchObject({ hidden: true });
    expect(await (await h.get('/api/annotationtypes', me.cookie)).json()).toEqual([]);
    const restored = await h.send('POST', `/api/annotationtypes/${r.id}/restore`, me.cookie);
    expect(await restored.json()).toMatchObject({ hidden: false });
  });

  it('keeps changes for admins of FullProduct companies', async () => {
    const manager = await h.tenant({ role: 'manager' });
    const r = await aDowntimeReason(h.t.db, manager.company);
    expect(
      (
        await h.send('POST', '/api/annotationtypes', manager.cookie, {
          name: 'X',
          plannedBehavior: 'planned',
        })
      ).status,
    ).toBe(403);
    expect((await h.send('PUT', `/api/annotationtypes/${r.id}`, manager.cookie, { name: 'Y' })).status).toBe(
      403,
    );
    expect((await h.send('POST', `/api/annotationtypes/${r.id}/archive`, manager.cookie)).status).toBe(403);
    expect((await h.get('/api/annotationtypes', manager.cookie)).status).toBe(200);
    const util = await aCompany(h.t.db, { productTier: 'utilization' });
    const admin = await aUser(h.t.db, util, { role: 'admin' });
    const cookie = await h.login(admin.email, admin.password);
    expect(
      (await h.send('POST', '/api/annotationtypes', cookie, { name: 'X', plannedBehavior: 'planned' }))
        .status,
    ).toBe(403);
  });

  it("answers 404 for another company's reason or machine", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const r = await aDowntimeReason(h.t.db, theirs.company, { name: 'Secret' });
    const m = await aMachine(h.t.db, theirs.company);
    expect((await h.send('PUT', `/api/annotationtypes/${r.id}`, mine.cookie, { name: 'Mine' })).status).toBe(
      404,
    );
    expect((await h.send('POST', `/api/annotationtypes/${r.id}/archive`, mine.cookie)).status).toBe(404);
    expect((await h.send('POST', `/api/annotationtypes/${r.id}/restore`, mine.cookie)).status).toBe(404);
    expect((await h.get(`/api/annotationtypes?machineId=${m}`, mine.cookie)).status).toBe(404);
    expect(await (await h.get('/api/annotationtypes', mine.cookie)).json()).toEqual([]);
  });

  it('seeds demo reasons of every plannedBehavior and reject_behavior, once', async () => {
    const company = await aCompany(h.t.db);
    const scope = companyScope(h.t.db, company.id);
    await seedDemoReasons(scope, 1_763_800_000_000);
    await seedDemoReasons(scope, 1_763_800_000_000);
    const downtime = await listAnnotationTypes(scope);
    expect(new Set(downtime.map((t) => t.plannedBehavior))).toEqual(new Set(PLANNED_BEHAVIORS));
    expect(downtime.find((t) => t.name === 'Tool change')).toMatchObject({ plannedLimitMs: 300_000 });
    expect(downtime.every((t) => /^#[0-9a-f]{6}$/i.test(t.color))).toBe(true);
    expect(new Set(downtime.map((t) => t.name)).size).toBe(downtime.length);
    const rejects = await listPartAdjustmentTypes(scope);
    expect(new Set(rejects.filter((t) => t.scrap).map((t) => t.reject_behavior))).toEqual(
      new Set(['operator', 'scrap', 'nonconform']),
    );
    expect(rejects.filter((t) => !t.scrap)).toHaveLength(1);
  });
});
