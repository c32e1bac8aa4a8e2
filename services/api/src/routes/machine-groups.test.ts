import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DIALECTS } from '@takt/db/testing';
import { machineGroupSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aDowntimeReason } from '../testing/downtime-builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';

const groups = z.array(machineGroupSchema);

describe.each(DIALECTS)('machine groups on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const list = (cookie: string) => h.read('/api/machinegroups', cookie, groups);

  it('creates, edits and deletes a group with its machines and downtime reasons (admins)', async () => {
    const { company, cookie } = await h.tenant();
    const a = await aMachine(h.t.db, company, { name: 'A' });
    const b = await aMachine(h.t.db, company, { name: 'B' });
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Tooling' });

    const res = await h.send('POST', '/api/machinegroups', cookie, {
      name: ' Cell 1 ',
      erpGroupId: 'ERP-1',
      machines: [a, b, a],
      annotationTypes: [reason.id],
    });
    expect(res.status).toBe(201);
    const group = machineGroupSchema.parse(await res.json());
    expect(group).toMatchObject({ name: 'Cell 1', erpGroupId: 'ERP-1', annotationTypes: [reason.id] });
    expect([...group.machines].sort()).toEqual([a, b].sort());

    const edited = await h.send('PUT', `/api/machinegroups/${group.id}`, cookie, {
      name: 'Cell 2',
      erpGroupId: '',
      machines: [b],
    });
    expect(edited.status).toBe(200);
    // annotationTypes left out: the group keeps its downtime reasons.
    expect(machineGroupSchema.parse(await edited.json())).toMatchObject({
      name: 'Cell 2',
      erpGroupId: null,
      machines: [b],
      annotationTypes: [reason.id],
    });
    expect((await h.get(`/api/machinegroups/${group.id}`, cookie)).status).toBe(200);

    const gone = await h.send('DELETE', `/api/machinegroups/${group.id}`, cookie);
    expect(gone.status).toBe(204);
    expect(await list(cookie)).toEqual([]);
    expect(await h.t.db.selectFrom('machine_group_members').selectAll().execute()).toEqual([]);
    expect(await h.t.db.selectFrom('machine_group_annotation_types').selectAll().execute()).toEqual([]);
  });

  it('refuses a missing name and ids of nothing the company has', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('POST', '/api/machinegroups', cookie, {
      name: '',
      erpGroupId: null,
      machines: [],
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('Missing required field: Name');

    const unknown = await h.send('POST', '/api/machinegroups', cookie, {
      name: 'G',
      erpGroupId: null,
      machines: ['nope'],
      annotationTypes: ['nope'],
    });
    expect(issueFields(await errorOf(unknown))).toEqual(['annotationTypes', 'machines']);
  });

  it('gates downtime reasons by FullProduct, writes by admin, and hides other companies’ groups', async () => {
    const { company, cookie } = await h.tenant();
    const reason = await aDowntimeReason(h.t.db, company);
    const group = machineGroupSchema.parse(
      await (
        await h.send('POST', '/api/machinegroups', cookie, {
          name: 'G',
          erpGroupId: null,
          machines: [],
          annotationTypes: [reason.id],
        })
      ).json(),
    );
    const manager = await loginAs(h, company, 'manager');
    expect((await list(manager)).map((g) => g.name)).toEqual(['G']);
    expect(
      (
        await h.send('PUT', `/api/machinegroups/${group.id}`, manager, {
          name: 'X',
          erpGroupId: null,
          machines: [],
        })
      ).status,
    ).toBe(403);

    await h.t.db
      .updateTable('companies')
      .set({ product_tier: 'utilization' })
      .where('id', '=', company.id)
      .execute();
    expect((await list(cookie))[0]?.annotationTypes).toEqual([]);
    const withReasons = await h.send('PUT', `/api/machinegroups/${group.id}`, cookie, {
      name: 'G',
      erpGroupId: null,
      machines: [],
      annotationTypes: [],
    });
    expect(withReasons.status).toBe(403);
    // Without FullProduct the rest of the group is still edited, its reasons kept.
    const plain = await h.send('PUT', `/api/machinegroups/${group.id}`, cookie, {
      name: 'G2',
      erpGroupId: null,
      machines: [],
    });
    expect(plain.status).toBe(200);
    expect(
      await h.t.db.selectFrom('machine_group_annotation_types').select('annotation_type_id').execute(),
    ).toEqual([{ annotation_type_id: reason.id }]);

    const other = await h.tenant();
    expect(await list(other.cookie)).toEqual([]);
    expect((await h.get(`/api/machinegroups/${group.id}`, other.cookie)).status).toBe(404);
    expect((await h.send('DELETE', `/api/machinegroups/${group.id}`, other.cookie)).status).toBe(404);
  });
});
