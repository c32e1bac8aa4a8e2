import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalMachinePageSchema, systemVersionSchema, tabletRefreshAllSchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { aTablet } from '../testing/tablet-builders';
import { API_VERSION } from '../version';

// The internal (root) machine list and system page (reports-admin §2 "Internal machine list", "System page";
// §6 root only; §7 calls; decisions 0920-0923), on both dialects; who may call them is checked with the other
// internal calls in internal-admin.test.ts. One harness per dialect: every test makes its own companies.

const DAY = 86_400_000;
// The harness clock: 2025-11-22 08:26:40 UTC, 02:26 in America/Chicago, so "today" is 2025-11-22 there.
const START = 1_763_800_000_000;

const Issues = (res: unknown) =>
  ((res as { error?: { issues?: Array<{ field: string; message: string }> } }).error?.issues ?? []).map(
    (i) => `${i.field}: ${i.message}`,
  );

describe.each(DIALECTS)('internal machine list and system page on %s', (dialect) => {
  let h: ApiHarness;
  let root: string;

  beforeAll(async () => {
    h = await apiHarness(dialect, START);
    const staff = await aUser(h.t.db, await aCompany(h.t.db, { name: 'Takt internal' }), { isRoot: true });
    root = await h.login(staff.email, staff.password);
  });
  afterAll(() => h.close());

  it('pages, sorts and searches every company’s machines (getAllMachines)', async () => {
    const tag = `q${crypto.randomUUID().slice(0, 6)}`;
    const north = await aCompany(h.t.db, { name: `North ${tag}` });
    const south = await aCompany(h.t.db, { name: `South ${tag}` });
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const id = await aMachine(h.t.db, i % 2 ? south : north, {
        name: `${tag} M${String(i).padStart(2, '0')}`,
      });
      await h.t.db
        .updateTable('machines')
        .set({ created_at: START - (27 - i) * DAY })
        .where('id', '=', id)
        .execute();
      ids.push(id);
    }
    const page = async (query: string) => {
      const res = await h.get(`/api/internal/machines?${query}`, root);
      expect(res.status).toBe(200);
      return internalMachinePageSchema.parse(await res.json());
    };

    // Default: 25 per page, newest first.
    const first = await page(`filter=${tag}`);
    expect(first.total).toBe(27);
    expect(first.items.map((m) => m.id)).toEqual([...ids].reverse().slice(0, 25));
    const second = await page(`filter=${tag}&offset=25`);
    expect(second.items.map((m) => m.id)).toEqual([ids[1], ids[0]]);
    expect(first.items[0]).toMatchObject({
      company: `North ${tag}`,
      integrationType: 'none',
      rootMachine: false,
      decommissionedAt: null,
    });

    // By name ascending; by company descending (South first).
    const byName = await page(`filter=${tag}&orderBy=name&orderDirection=asc&limit=3`);
    expect(byName.items.map((m) => m.name)).toEqual([`${tag} M00`, `${tag} M01`, `${tag} M02`]);
    const byCompany = await page(`filter=${tag}&orderBy=company&orderDirection=desc&limit=100`);
    expect(byCompany.items.slice(0, 13).every((m) => m.company === `South ${tag}`)).toBe(true);

    // Make, model and payer are set here, searched and sorted with blanks last both ways.
    expect(
      (
        await h.send('PUT', `/api/internal/machines/${ids[3]}`, root, {
          make: 'Haas',
          model: 'VF-2',
          payer: 'Distributor',
        })
      ).status,
    ).toBe(204);
    expect((await h.send('PUT', `/api/internal/machines/${ids[5]}`, root, { make: 'Okuma' })).status).toBe(
      204,
    );
    for (const dir of ['asc', 'desc']) {
      const byMake = await page(`filter=${tag}&orderBy=make&orderDirection=${dir}&limit=3`);
      expect(byMake.items.map((m) => m.make)).toEqual(
        dir === 'asc' ? ['Haas', 'Okuma', null] : ['Okuma', 'Haas', null],
      );
    }
    const haas = await page(`filter=${encodeURIComponent('vf-2')}`);
    expect(haas.items.map((m) => m.id)).toEqual([ids[3]]);
    expect(haas.items[0]).toMatchObject({ make: 'Haas', model: 'VF-2', payer: 'Distributor' });
    expect((await page(`filter=${encodeURIComponent(`north ${tag}`)}`)).total).toBe(14);
    // A search's % is a character, not a wildcard.
    expect((await page(`filter=${tag}%25`)).total).toBe(0);

    const bad = await h.get('/api/internal/machines?orderBy=colour&limit=500', root);
    expect(bad.status).toBe(400);
    expect(Issues(await bad.json())).toEqual([
      'limit: limit must be at most 100',
      expect.stringContaining('orderBy: orderBy must be one of name, createdAt'),
    ]);
    expect(
      (await h.send('PUT', `/api/internal/machines/${crypto.randomUUID()}`, root, { make: 'X' })).status,
    ).toBe(404);
  });

  it('increments the version and the JS version for good: every response then carries the new MM-API-Version', async () => {
    const read = async () =>
      systemVersionSchema.parse(await (await h.get('/api/internal/system/version', root)).json());
    const before = await read();
    const header = async () => (await h.get('/api/me', root)).headers.get('MM-API-Version');
    expect(await header()).toBe(before.version);

    const api = await h.send('POST', '/api/internal/system/version/increment', root);
    const afterApi = systemVersionSchema.parse(await api.json());
    expect(afterApi).toMatchObject({
      apiRevision: before.apiRevision + 1,
      jsRevision: before.jsRevision,
      updatedAt: START,
    });
    expect(afterApi.version).toBe(`${API_VERSION}+${before.apiRevision + 1}.${before.jsRevision}`);
    // The answer to the increment itself already carries it, so the root user's own page sees it too.
    expect(api.headers.get('MM-API-Version')).toBe(afterApi.version);
    expect(await header()).toBe(afterApi.version);

    const js = systemVersionSchema.parse(
      await (await h.send('POST', '/api/internal/system/version/increment', root, { type: 'js' })).json(),
    );
    expect(js).toMatchObject({ apiRevision: before.apiRevision + 1, jsRevision: before.jsRevision + 1 });
    expect(await header()).toBe(js.version);
    // Stored, not held in memory.
    expect(
      await h.t.db.selectFrom('system_versions').select(['api_revision', 'js_revision']).executeTakeFirst(),
    ).toEqual({
      api_revision: before.apiRevision + 1,
      js_revision: before.jsRevision + 1,
    });
    expect(
      (await h.send('POST', '/api/internal/system/version/increment', root, { type: 'css' })).status,
    ).toBe(400);
  });

  it('refreshes and purges the tablets of every company', async () => {
    const a = await aCompany(h.t.db);
    const b = await aCompany(h.t.db);
    const ta = await aTablet(h.t.db, a, null, START);
    const tb = await aTablet(h.t.db, b, null, START);
    const revokedA = await aTablet(h.t.db, a, null, START);
    const revokedB = await aTablet(h.t.db, b, null, START);
    await h.t.db
      .updateTable('tablets')
      .set({ state: 'revoked' })
      .where('id', 'in', [revokedA.id, revokedB.id])
      .execute();
    // Tablet a's socket answers (as the tablet-auth socket would); tablet b's does not.
    const stop = h.bus.subscribe((e) => {
      if (e.topic === 'tablet' && e.machineId === ta.id && e.tablet?.event === 'refresh')
        void h.bus.publish([{ ...e, tablet: { event: 'ack', nonce: e.tablet.nonce! } }]);
    });
    try {
      const res = await h.send('POST', '/api/internal/system/tablets/refresh-all', root);
      expect(res.status).toBe(200);
      const body = tabletRefreshAllSchema.parse(await res.json());
      expect(body.pushed).toContain(ta.id);
      expect(body.notPushed).toContain(tb.id);
      expect(body.notPushedTablets).toContainEqual({ id: tb.id, company: b.name, label: expect.any(String) });
      expect([...body.pushed, ...body.notPushed]).not.toContain(revokedA.id);
    } finally {
      stop();
    }

    const purge = await h.send('POST', '/api/internal/system/tablets/purge', root);
    expect(await purge.json()).toEqual({ purgedTabletCount: 2 });
    const left = await h.t.db
      .selectFrom('tablets')
      .select('id')
      .where('company_id', 'in', [a.id, b.id])
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual([ta.id, tb.id].sort());
  });
});
