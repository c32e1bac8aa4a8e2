import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { adminMachineSchema, internalMachinePageSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aUser } from '../testing/builders';
import { errorOf, issueFields } from '../testing/live-builders';
import { aMachineSaveBody } from '../testing/machine-admin-builders';

// reports-admin §6 "root sees extra machine options", §3 Machine "billingDate, integratedAt, …, version=2, ping
// monitor (null, 1, 0)", §5 "Machine billing date from 2014-06-01 to 1 year ahead" (decisions 1111, 1112).

const body = (over: Record<string, unknown> = {}) => aMachineSaveBody({ source: null, ...over });

const DAY = 86_400_000;

describe.each(DIALECTS)('machines admin: root-only fields on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** An admin of a new company, and a root user of the same company. */
  async function adminAndRoot() {
    const { company, cookie } = await h.tenant();
    const root = await aUser(h.t.db, company, { role: 'admin', isRoot: true });
    return { company, admin: cookie, root: await h.login(root.email, root.password) };
  }

  async function created(cookie: string, over: Record<string, unknown> = {}) {
    const res = await h.send('POST', '/api/machines', cookie, body(over));
    expect(res.status).toBe(201);
    return (await res.json()) as Record<string, unknown>;
  }

  it('root sets and sees billing date, integration time and ping monitor; an admin sees none of them', async () => {
    const { admin, root } = await adminAndRoot();
    const integratedAt = h.clock.now - 30 * DAY;
    const m = await created(root, { billingDate: '2025-01-15', integratedAt, pingMonitor: 1 });
    expect(m).toMatchObject({
      billingDate: '2025-01-15',
      integratedAt,
      integratedAtSet: true,
      pingMonitor: 1,
      version: 2,
    });
    const id = String(m.id);
    const seenByAdmin = await h.read(`/api/machines/${id}`, admin, adminMachineSchema);
    for (const key of ['billingDate', 'integratedAt', 'integratedAtSet', 'pingMonitor', 'version'])
      expect(seenByAdmin).not.toHaveProperty(key);
    const list = await h.read('/api/machines', admin, adminMachineSchema.array());
    expect(list[0]).not.toHaveProperty('billingDate');

    // An admin's save without them keeps them.
    expect((await h.send('PUT', `/api/machines/${id}`, admin, body({ name: 'Lathe 8' }))).status).toBe(200);
    expect(await h.read(`/api/machines/${id}`, root, adminMachineSchema)).toMatchObject({
      name: 'Lathe 8',
      billingDate: '2025-01-15',
      integratedAt,
      pingMonitor: 1,
    });
    // Root clears them with null.
    const none = { billingDate: null, integratedAt: null, pingMonitor: null };
    const cleared = await h.send('PUT', `/api/machines/${id}`, root, body(none));
    expect(await cleared.json()).toMatchObject({ ...none, integratedAtSet: false });
  });

  it('refuses the root-only fields from an admin with 403, and changes nothing', async () => {
    const { admin, root } = await adminAndRoot();
    const m = await created(root, { pingMonitor: 0 });
    for (const extra of [
      { billingDate: '2025-01-15' },
      { integratedAt: h.clock.now },
      { pingMonitor: null },
    ]) {
      const res = await h.send('PUT', `/api/machines/${String(m.id)}`, admin, body(extra));
      expect(res.status).toBe(403);
      const err = await errorOf(res);
      expect(err.code).toBe('ROOT_ONLY');
      expect(err.message).toBe(`Only Takt staff (root users) may set ${Object.keys(extra)[0]}.`);
    }
    const post = await h.send('POST', '/api/machines', admin, body({ name: 'New', pingMonitor: 1 }));
    expect(post.status).toBe(403);
    expect(await h.read(`/api/machines/${String(m.id)}`, root, adminMachineSchema)).toMatchObject({
      name: 'Lathe 7',
      pingMonitor: 0,
      billingDate: null,
    });
    expect((await h.read('/api/machines', root, adminMachineSchema.array())).map((x) => x.name)).toEqual([
      'Lathe 7',
    ]);
  });

  it('billing date from 2014-06-01 to 1 year ahead, else 400 in the spec’s words', async () => {
    const { root } = await adminAndRoot();
    // The harness clock is 2025-11-22: a year ahead is 2026-11-22.
    expect(new Date(h.clock.now).toISOString().slice(0, 10)).toBe('2025-11-22');
    await created(root, { name: 'First', billingDate: '2014-06-01' });
    await created(root, { name: 'Last', billingDate: '2026-11-22' });
    for (const billingDate of ['2014-05-31', '2026-11-23', '2025-02-30']) {
      const res = await h.send('POST', '/api/machines', root, body({ billingDate }));
      expect(res.status).toBe(400);
      const err = await errorOf(res);
      expect(issueFields(err)).toEqual(['billingDate']);
      expect(err.message).toBe(
        billingDate === '2025-02-30'
          ? 'Machine billing date must be a date (YYYY-MM-DD)'
          : 'Machine billing date must be from 2014-06-01 to 1 year ahead (2026-11-22)',
      );
    }
    const text = await h.send('POST', '/api/machines', root, body({ billingDate: 'soon' }));
    expect(text.status).toBe(400);
    expect(issueFields(await errorOf(text))).toEqual(['billingDate']);
  });

  it('integration time: not before 2014-04-01, not in the future', async () => {
    const { root } = await adminAndRoot();
    for (const [integratedAt, message] of [
      [Date.UTC(2014, 2, 31), 'Integrated at must not be before 2014-04-01'],
      [h.clock.now + DAY, 'Integrated at must not be in the future'],
    ] as const) {
      const res = await h.send('POST', '/api/machines', root, body({ integratedAt }));
      expect(res.status).toBe(400);
      const err = await errorOf(res);
      expect(issueFields(err)).toEqual(['integratedAt']);
      expect(err.message).toBe(message);
    }
  });

  it('integratedAt not set by root is the machine’s first data, or null before any', async () => {
    const { company, root } = await adminAndRoot();
    const m = await created(root);
    expect(m).toMatchObject({ integratedAt: null, integratedAtSet: false });
    const first = h.clock.now - 2 * DAY;
    await h.t.db
      .insertInto('observations')
      .values([
        {
          company_id: company.id,
          machine_id: String(m.id),
          ts: first + 5000,
          key: 'execution',
          value: 'READY',
        },
        { company_id: company.id, machine_id: String(m.id), ts: first, key: 'avail', value: 'AVAILABLE' },
      ])
      .execute();
    expect(await h.read(`/api/machines/${String(m.id)}`, root, adminMachineSchema)).toMatchObject({
      integratedAt: first,
      integratedAtSet: false,
    });
  });

  it('the internal machine list shows the billing date and the integration time (root’s, else the first data)', async () => {
    const { company, root } = await adminAndRoot();
    const integratedAt = h.clock.now - 30 * DAY;
    const set = await created(root, { name: 'Set', billingDate: '2025-01-15', integratedAt });
    const auto = await created(root, { name: 'Auto' });
    const first = h.clock.now - 3 * DAY;
    await h.t.db
      .insertInto('observations')
      .values({
        company_id: company.id,
        machine_id: String(auto.id),
        ts: first,
        key: 'avail',
        value: 'AVAILABLE',
      })
      .execute();
    const res = await h.get(`/api/internal/machines?filter=${encodeURIComponent(company.name)}`, root);
    expect(res.status).toBe(200);
    const page = internalMachinePageSchema.parse(await res.json());
    const byId = new Map(page.items.map((m) => [m.id, m]));
    expect(byId.get(String(set.id))).toMatchObject({ billingDate: '2025-01-15', integratedAt });
    expect(byId.get(String(auto.id))).toMatchObject({ billingDate: null, integratedAt: first });
  });

  it('another company’s root-less admin cannot reach the machine (404)', async () => {
    const { root } = await adminAndRoot();
    const m = await created(root, { billingDate: '2025-01-15' });
    const other = await h.tenant();
    expect((await h.get(`/api/machines/${String(m.id)}`, other.cookie)).status).toBe(404);
  });
});
