import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalCompanyListSchema, internalCompanySchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';

// The internal (root) screens' calls (reports-admin §2 "Internal company admin"; §5 trial rule; §6 root only;
// §7 calls; decisions 0920-0923), on both dialects: who may call them, and the company list, create and edit.
// The machine list and the system page are in internal-system.test.ts. One harness per dialect: every test
// makes its own companies and finds its rows by their ids or a tag of its own.

const DAY = 86_400_000;
const MIN = 60_000;
// The harness clock: 2025-11-22 08:26:40 UTC, 02:26 in America/Chicago, so "today" is 2025-11-22 there.
const START = 1_763_800_000_000;
const GATEWAY = crypto.randomUUID();
const ADAPTER = crypto.randomUUID();

const Issues = (res: unknown) =>
  ((res as { error?: { issues?: Array<{ field: string; message: string }> } }).error?.issues ?? []).map(
    (i) => `${i.field}: ${i.message}`,
  );

const companyBody = (over: Record<string, unknown> = {}) => ({
  name: `Acme ${crypto.randomUUID().slice(0, 6)}`,
  timezone: 'America/Chicago',
  product_tier: 'full',
  erp: 'Epicor',
  trial_expiration_date: '2025-12-06',
  annualRecurringRevenue: 12_000,
  ...over,
});

describe.each(DIALECTS)('internal screens on %s', (dialect) => {
  let h: ApiHarness;
  let root: string;

  beforeAll(async () => {
    h = await apiHarness(dialect, START);
    const home = await aCompany(h.t.db, { name: 'Takt internal' });
    const user = await aUser(h.t.db, home, { isRoot: true });
    root = await h.login(user.email, user.password);
  });
  afterAll(async () => {
    await h.close();
  });

  const list = async (query = '') =>
    internalCompanyListSchema.parse(await (await h.get(`/api/internal/companies${query}`, root)).json());

  it('answers 401 without a session and 403 to non-root admins, managers and operators on every call', async () => {
    const company = await aCompany(h.t.db);
    const machineId = await aMachine(h.t.db, company);
    const calls: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['GET', '/api/internal/companies'],
      ['POST', '/api/internal/companies', companyBody()],
      ['PUT', `/api/internal/companies/${company.id}`, companyBody()],
      ['PUT', `/api/internal/companies/${company.id}/muted`, { muted: true }],
      ['GET', '/api/internal/machines'],
      ['PUT', `/api/internal/machines/${machineId}`, { make: 'Haas' }],
      ['GET', '/api/internal/system/version'],
      ['POST', '/api/internal/system/version/increment', { type: 'js' }],
      ['POST', '/api/internal/system/tablets/refresh-all'],
      ['POST', '/api/internal/system/tablets/purge'],
      // The gateway and adapter administration (reports-admin §2 Internal screens) is root-only too; the
      // refusal comes before any lookup, so ids of records that do not exist do.
      ['GET', '/api/gateways'],
      ['GET', '/api/gateways/companies'],
      ['GET', `/api/gateways/${GATEWAY}`],
      ['POST', '/api/gateways', { name: 'Edge 1' }],
      ['PUT', `/api/gateways/${GATEWAY}`, { name: 'Edge 2' }],
      ['DELETE', `/api/gateways/${GATEWAY}`],
      ['POST', `/api/gateways/${GATEWAY}/enable`],
      ['POST', `/api/gateways/${GATEWAY}/disable`],
      ['POST', `/api/gateways/${GATEWAY}/reset`],
      ['POST', `/api/gateways/${GATEWAY}/deregister`],
      ['POST', `/api/gateways/${GATEWAY}/pusher-update`, { version: '3.1.0' }],
      ['POST', `/api/gateways/${GATEWAY}/machines`, { machineId, machineRef: 'lathe' }],
      ['DELETE', `/api/gateways/${GATEWAY}/machines/${machineId}`],
      ['GET', '/api/adapters/data-items'],
      ['POST', '/api/adapters/import', { devicesXml: '<MTConnectDevices/>', shdr: 'x|1' }],
      ['POST', '/api/adapters', { name: 'Okuma' }],
      ['PUT', `/api/adapters/${ADAPTER}`, { name: 'Okuma 2' }],
      ['DELETE', `/api/adapters/${ADAPTER}`],
      ['POST', `/api/adapters/${ADAPTER}/clone`, { name: 'Okuma 3' }],
    ];
    // The list is every root-only route (the internal mounts, gateways and adapters, less the company admins'
    // gateway status and adapter reads), so a new one cannot go unchecked.
    const forAdmins = [
      'GET /api/gateways/status',
      'GET /api/adapters',
      'GET /api/adapters/types',
      'GET /api/adapters/:id',
      // Integration types and an adapter's artifacts are company admins' reads (decision 1108).
      'GET /api/adapters/integration-types',
      'GET /api/adapters/:id/artifacts/:name',
    ];
    const mounted = h.app.routes
      .filter(
        (r) =>
          r.method !== 'ALL' &&
          /^\/api\/(internal\/(companies|machines|system)|gateways|adapters)(\/|$)/.test(r.path),
      )
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
      .filter((r) => !forAdmins.includes(r));
    const listed = calls.map(
      ([method, path]) =>
        `${method} ${path
          .replace(`${GATEWAY}/machines/${machineId}`, `${GATEWAY}/machines/:machineId`)
          .replace(company.id, ':id')
          .replace(machineId, ':id')
          .replace(GATEWAY, ':id')
          .replace(ADAPTER, ':id')}`,
    );
    expect([...new Set(mounted)].sort()).toEqual([...listed].sort());
    // `?companyId=` (decision 0946) is for root users only: every other caller who names a company is refused,
    // on the company admins' adapter reads too, whether it names another company or their own.
    const other = await aCompany(h.t.db);
    const naming: typeof calls = [
      ['GET', `/api/adapters?companyId=${other.id}`],
      ['GET', `/api/adapters?companyId=${company.id}`],
      ['GET', `/api/adapters/types?companyId=${other.id}`],
      ['GET', `/api/adapters/${ADAPTER}?companyId=${other.id}`],
      ['GET', `/api/adapters/data-items?companyId=${other.id}`],
      [
        'POST',
        `/api/adapters/import?companyId=${other.id}`,
        { devicesXml: '<MTConnectDevices/>', sample: 'x|1' },
      ],
      ['POST', `/api/adapters?companyId=${other.id}`, { name: 'Okuma' }],
      ['PUT', `/api/adapters/${ADAPTER}?companyId=${other.id}`, { name: 'Okuma 2' }],
      ['DELETE', `/api/adapters/${ADAPTER}?companyId=${other.id}`],
      ['POST', `/api/adapters/${ADAPTER}/clone?companyId=${other.id}`, {}],
    ];
    const before = await h.t.db.selectFrom('system_versions').selectAll().execute();
    const cookies: string[] = [];
    for (const role of ['admin', 'manager', 'operator'] as const) {
      const u = await aUser(h.t.db, company, { role });
      cookies.push(await h.login(u.email, u.password));
    }
    const answers: string[] = [];
    for (const [method, path, body] of [...calls, ...naming]) {
      const anonymous =
        method === 'GET'
          ? await h.app.request(path)
          : await h.app.request(path, {
              method,
              headers: { origin: 'http://localhost', 'content-type': 'application/json' },
              body: JSON.stringify(body ?? {}),
            });
      answers.push(`${method} ${path} none ${anonymous.status}`);
      for (const [i, cookie] of cookies.entries()) {
        const res = method === 'GET' ? await h.get(path, cookie) : await h.send(method, path, cookie, body);
        answers.push(`${method} ${path} ${['admin', 'manager', 'operator'][i]} ${res.status}`);
      }
    }
    expect(answers).toEqual(
      [...calls, ...naming].flatMap(([method, path]) => [
        `${method} ${path} none 401`,
        `${method} ${path} admin 403`,
        `${method} ${path} manager 403`,
        `${method} ${path} operator 403`,
      ]),
    );
    // Refused calls changed nothing.
    expect(await h.t.db.selectFrom('system_versions').selectAll().execute()).toEqual(before);
    const row = await h.t.db
      .selectFrom('companies')
      .select('muted')
      .where('id', '=', company.id)
      .executeTakeFirst();
    expect(row?.muted).toBe(0);
    const adapters = await h.t.db
      .selectFrom('adapters')
      .select('id')
      .where('company_id', '=', other.id)
      .execute();
    expect(adapters).toEqual([]);
  });

  it('lists every company with machine count, last seen, muted and the total ARR', async () => {
    const a = await aCompany(h.t.db);
    const b = await aCompany(h.t.db);
    const silent = await aCompany(h.t.db);
    const [m1] = [await aMachine(h.t.db, a), await aMachine(h.t.db, a)];
    const rootMachine = await aMachine(h.t.db, a);
    const gone = await aMachine(h.t.db, a);
    await h.t.db.updateTable('machines').set({ root_machine: 1 }).where('id', '=', rootMachine).execute();
    await h.t.db
      .updateTable('machines')
      .set({ decommissioned_at: START - DAY })
      .where('id', '=', gone)
      .execute();
    await aMachine(h.t.db, b);
    // a: its SHDR source took a line 3 minutes ago; b: its gateway pushed 30 s ago, its source 10 minutes ago.
    await h.t.db
      .insertInto('machine_sources')
      .values({
        id: crypto.randomUUID(),
        company_id: a.id,
        machine_id: m1!,
        kind: 'shdr',
        host: '10.0.0.1',
        port: 7878,
        enabled: 1,
        stat_lines: 1,
        stat_observations: 1,
        stat_rejected: 0,
        last_line_at: START - 3 * MIN,
        created_at: START - DAY,
      })
      .execute();
    const bMachine = (
      await h.t.db
        .selectFrom('machines')
        .select('id')
        .where('company_id', '=', b.id)
        .executeTakeFirstOrThrow()
    ).id;
    await h.t.db
      .insertInto('machine_sources')
      .values({
        id: crypto.randomUUID(),
        company_id: b.id,
        machine_id: bMachine,
        kind: 'shdr',
        host: '10.0.0.2',
        port: 7878,
        enabled: 1,
        stat_lines: 1,
        stat_observations: 1,
        stat_rejected: 0,
        last_line_at: START - 10 * MIN,
        created_at: START - DAY,
      })
      .execute();
    await h.t.db
      .insertInto('gateways')
      .values({
        id: crypto.randomUUID(),
        company_id: b.id,
        name: 'Edge',
        state: 'active',
        activation_status: 'activated',
        ingest_multiplier: 1,
        pusher_config: '{}',
        supervisor_config: '{}',
        last_response: START - 30_000,
        created_at: START - DAY,
      })
      .execute();
    await h.t.db
      .updateTable('companies')
      .set({ annual_recurring_revenue: 1000 })
      .where('id', '=', a.id)
      .execute();
    await h.t.db
      .updateTable('companies')
      .set({ annual_recurring_revenue: 250 })
      .where('id', '=', b.id)
      .execute();

    const all = await list();
    const byId = new Map(all.companies.map((c) => [c.id, c]));
    expect(byId.get(a.id)).toMatchObject({ machineCount: 2, lastSeen: START - 3 * MIN, muted: false });
    expect(byId.get(b.id)).toMatchObject({
      machineCount: 1,
      lastSeen: START - 30_000,
      annualRecurringRevenue: 250,
    });
    expect(byId.get(silent.id)).toMatchObject({
      machineCount: 0,
      lastSeen: null,
      annualRecurringRevenue: null,
    });
    expect(all.totalAnnualRecurringRevenue).toBe(
      all.companies.reduce((s, c) => s + (c.annualRecurringRevenue ?? 0), 0),
    );
    expect((await list('?rootMachines=true')).companies.find((c) => c.id === a.id)?.machineCount).toBe(3);

    const muted = await h.send('PUT', `/api/internal/companies/${b.id}/muted`, root, { muted: true });
    expect(internalCompanySchema.parse(await muted.json()).muted).toBe(true);
    const onlyMuted = await list('?muted=true');
    expect(onlyMuted.companies.map((c) => c.id)).toContain(b.id);
    expect(onlyMuted.companies.every((c) => c.muted)).toBe(true);
    expect((await list('?muted=false')).companies.map((c) => c.id)).not.toContain(b.id);
    await h.send('PUT', `/api/internal/companies/${b.id}/muted`, root, { muted: false });
    expect((await list()).companies.find((c) => c.id === b.id)?.muted).toBe(false);
    expect(
      (await h.send('PUT', `/api/internal/companies/${crypto.randomUUID()}/muted`, root, { muted: true }))
        .status,
    ).toBe(404);
  });

  it('creates and edits a company with the trial rules of reports-admin §5, saying what is wrong', async () => {
    const created = await h.send(
      'POST',
      '/api/internal/companies',
      root,
      companyBody({ name: '  Lakeside Tool  ' }),
    );
    expect(created.status).toBe(201);
    const c = internalCompanySchema.parse(await created.json());
    expect(c).toMatchObject({
      name: 'Lakeside Tool',
      timezone: 'America/Chicago',
      product_tier: 'full',
      erp: 'Epicor',
      trial_expiration_date: '2025-12-06',
      annualRecurringRevenue: 12_000,
      machineCount: 0,
      muted: false,
    });

    const refused = async (
      body: Record<string, unknown>,
      path = '/api/internal/companies',
      method: 'POST' | 'PUT' = 'POST',
    ) => {
      const res = await h.send(method, path, root, body);
      expect(res.status).toBe(400);
      return Issues(await res.json());
    };
    expect(await refused(companyBody({ name: ' ' }))).toEqual(['name: Missing required field: Name']);
    expect(await refused(companyBody({ timezone: 'Mars/Olympus' }))).toEqual([
      'timezone: Choose a time zone from the list',
    ]);
    expect(await refused(companyBody({ product_tier: 'gold' }))).toEqual([
      'product_tier: Choose a product tier: Service Provider, Utilization or Full',
    ]);
    // At most 365 days ahead: 2026-11-22 is the last day allowed.
    expect(
      (
        await h.send(
          'POST',
          '/api/internal/companies',
          root,
          companyBody({ trial_expiration_date: '2026-11-22' }),
        )
      ).status,
    ).toBe(201);
    expect(await refused(companyBody({ trial_expiration_date: '2026-11-23' }))).toEqual([
      'trial_expiration_date: Trial expiration can be at most 365 days ahead (2026-11-22 at the latest)',
    ]);
    // Not before today (today itself is allowed).
    expect(await refused(companyBody({ trial_expiration_date: '2025-11-21' }))).toEqual([
      'trial_expiration_date: Trial expiration cannot be earlier than 2025-11-22',
    ]);
    expect(await refused(companyBody({ trial_expiration_date: '2025-02-30' }))).toEqual([
      'trial_expiration_date: Trial expiration must be a real date (YYYY-MM-DD)',
    ]);
    // "Today" is the company's own day: at 08:26 UTC it is still 2025-11-21 in Pago Pago (UTC-11).
    expect(
      (
        await h.send(
          'POST',
          '/api/internal/companies',
          root,
          companyBody({ timezone: 'Pacific/Pago_Pago', trial_expiration_date: '2025-11-21' }),
        )
      ).status,
    ).toBe(201);
    // No trial at all is allowed.
    expect(
      (await h.send('POST', '/api/internal/companies', root, companyBody({ trial_expiration_date: null })))
        .status,
    ).toBe(201);

    // Edit: a date already past may be kept (or moved later), not moved earlier.
    await h.t.db
      .updateTable('companies')
      .set({ trial_expiration_date: '2025-10-01' })
      .where('id', '=', c.id)
      .execute();
    const path = `/api/internal/companies/${c.id}`;
    const kept = await h.send(
      'PUT',
      path,
      root,
      companyBody({
        name: 'Lakeside Tool & Die',
        trial_expiration_date: '2025-10-01',
        product_tier: 'utilization',
        erp: '',
      }),
    );
    expect(kept.status).toBe(200);
    expect(internalCompanySchema.parse(await kept.json())).toMatchObject({
      name: 'Lakeside Tool & Die',
      trial_expiration_date: '2025-10-01',
      product_tier: 'utilization',
      erp: null,
    });
    expect(await refused(companyBody({ trial_expiration_date: '2025-09-30' }), path, 'PUT')).toEqual([
      'trial_expiration_date: Trial expiration cannot be earlier than 2025-10-01',
    ]);
    expect(
      (await h.send('PUT', `/api/internal/companies/${crypto.randomUUID()}`, root, companyBody())).status,
    ).toBe(404);
  });
});
