import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { partAdjustmentTypeSchema } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aRejectReason } from '../testing/downtime-builders';

describe.each(DIALECTS)('part adjustment type routes on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('lists reject reasons; scrapOnly leaves out reasons not flagged scrap; archived only with includeHidden', async () => {
    const me = await h.tenant();
    await aRejectReason(h.t.db, me.company, { name: 'A scrap' });
    await aRejectReason(h.t.db, me.company, { name: 'B recount', scrap: false });
    await aRejectReason(h.t.db, me.company, { name: 'C archived', hidden: true });
    const names = async (q: string) =>
      partAdjustmentTypeSchema
        .array()
        .parse(await (await h.get(`/api/partadjustmenttypes${q}`, me.cookie)).json())
        .map((t) => t.name);
    expect(await names('')).toEqual(['A scrap', 'B recount']);
    expect(await names('?scrapOnly=true')).toEqual(['A scrap']);
    expect(await names('?includeHidden=true')).toEqual(['A scrap', 'B recount', 'C archived']);
    expect((await h.get('/api/partadjustmenttypes?scrapOnly=maybe', me.cookie)).status).toBe(400);
  });

  it('creates a reason with the defaults (colour #828282, flagged scrap), edits, archives and restores it', async () => {
    const me = await h.tenant();
    const res = await h.send('POST', '/api/partadjustmenttypes', me.cookie, {
      name: 'Porosity',
      reject_behavior: 'operator',
    });
    expect(res.status).toBe(201);
    const t = partAdjustmentTypeSchema.parse(await res.json());
    expect(t).toMatchObject({
      name: 'Porosity',
      company_id: me.company.id,
      color: '#828282',
      scrap: true,
      reject_behavior: 'operator',
      hidden: false,
    });
    const put = await h.send('PUT', `/api/partadjustmenttypes/${t.id}`, me.cookie, {
      reject_behavior: 'nonconform',
      color: '#00aa00',
    });
    expect(await put.json()).toMatchObject({
      name: 'Porosity',
      reject_behavior: 'nonconform',
      color: '#00aa00',
    });
    expect(
      await (await h.send('POST', `/api/partadjustmenttypes/${t.id}/archive`, me.cookie)).json(),
    ).toMatchObject({ hidden: true });
    expect(
      await (await h.send('POST', `/api/partadjustmenttypes/${t.id}/restore`, me.cookie)).json(),
    ).toMatchObject({ hidden: false });
  });

  it('refuses a reason without a name or behavior with the list of problems', async () => {
    const me = await h.tenant();
    const res = await h.send('POST', '/api/partadjustmenttypes', me.cookie, {
      name: '',
      reject_behavior: 'scrap',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      message: 'Reject reason could not be saved.',
      issues: [{ field: 'name', message: 'Missing required field: Name' }],
    });
    const bad = await h.send('POST', '/api/partadjustmenttypes', me.cookie, { reject_behavior: 'recycle' });
    const err = (await bad.json()).error;
    expect(err.issues.map((i: { field: string }) => i.field).sort()).toEqual(['name', 'reject_behavior']);
  });

  it('keeps changes for admins of FullProduct companies', async () => {
    const manager = await h.tenant({ role: 'manager' });
    const r = await aRejectReason(h.t.db, manager.company);
    expect(
      (
        await h.send('POST', '/api/partadjustmenttypes', manager.cookie, {
          name: 'X',
          reject_behavior: 'scrap',
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.send('PUT', `/api/partadjustmenttypes/${r.id}`, manager.cookie, { name: 'Y' })).status,
    ).toBe(403);
    expect((await h.send('POST', `/api/partadjustmenttypes/${r.id}/archive`, manager.cookie)).status).toBe(
      403,
    );
    const util = await aCompany(h.t.db, { productTier: 'utilization' });
    const admin = await aUser(h.t.db, util);
    const cookie = await h.login(admin.email, admin.password);
    expect(
      (await h.send('POST', '/api/partadjustmenttypes', cookie, { name: 'X', reject_behavior: 'scrap' }))
        .status,
    ).toBe(403);
  });

  it("answers 404 for another company's reason and never lists it", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const r = await aRejectReason(h.t.db, theirs.company, { name: 'Secret' });
    expect(
      (await h.send('PUT', `/api/partadjustmenttypes/${r.id}`, mine.cookie, { name: 'Mine' })).status,
    ).toBe(404);
    expect((await h.send('POST', `/api/partadjustmenttypes/${r.id}/archive`, mine.cookie)).status).toBe(404);
    expect((await h.send('POST', `/api/partadjustmenttypes/${r.id}/restore`, mine.cookie)).status).toBe(404);
    expect(await (await h.get('/api/partadjustmenttypes?includeHidden=true', mine.cookie)).json()).toEqual(
      [],
    );
  });
});
