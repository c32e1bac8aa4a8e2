import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncOutcome } from '@takt/domain';
import type { Database } from '@takt/db';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { HOUR, MIN, someStates } from '../testing/downtime-builders';
import { aShop, requestFor, ROUTES, sendRaw, SYNC_PAYLOADS } from '../testing/route-table';
import type { RouteCase, Shop } from '../testing/route-table';
import { aTablet } from '../testing/tablet-builders';

// Tenancy and tablet binding (ARCHITECTURE.md "Tenancy, auth and permissions") over the whole route table: another company's caller never sees or changes a thing, a
// tablet bound to one machine cannot act on another, and a repeated sync batch changes nothing.

/** Tables whose rows a request may touch without changing data (its own session, the tablet's last contact). */
const BOOKKEEPING = new Set(['sessions', 'tablets']);
const TABLES = (
  [
    'users',
    'sessions',
    'machine_groups',
    'machine_group_members',
    'machines',
    'adapters',
    'adapter_fields',
    'machine_sources',
    'observations',
    'state_intervals',
    'machine_live',
    'shifts',
    'shift_versions',
    'jobs',
    'job_machines',
    'setup_stages',
    'job_runs',
    'labor_activities',
    'annotation_types',
    'annotations',
    'part_adjustment_types',
    'part_adjustments',
    'operators',
    'operator_runs',
    'sync_commands',
    'cycles',
    'program_intervals',
    'faults',
    'flag_spans',
    'rollups',
    'gateways',
    'ingest_inbox',
    'rollup_dirty',
    'tablets',
    'email_preferences',
    'mail_outbox',
    'event_exports',
  ] as const satisfies ReadonlyArray<Exclude<keyof Database, 'companies'>>
).filter((t) => !BOOKKEEPING.has(t));

/**
 * Every row of one company, table by table, in a stable order. `ignore` leaves out tables that record
 * answers rather than data (sync_commands keeps each refused command so a repeat gets the same answer).
 */
async function snapshot(
  h: ApiHarness,
  companyId: string,
  ignore: ReadonlySet<string> = new Set(),
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES.filter((t) => !ignore.has(t))) {
    const rows = await h.t.db.selectFrom(table).selectAll().where('company_id', '=', companyId).execute();
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  out.companies = [
    JSON.stringify(await h.t.db.selectFrom('companies').selectAll().where('id', '=', companyId).execute()),
  ];
  return out;
}

/** How a request of the table was answered; for a sync batch, its one command's outcome (status 0). */
interface Answer {
  status: number;
  code: string;
  /** The codes of the error's issues. */
  issues: string[];
}

async function answerOf(res: Response, path: string): Promise<Answer> {
  const body = (await res.json().catch(() => null)) as {
    results?: SyncOutcome[];
    error?: { code: string; issues?: Array<{ code: string }> };
  } | null;
  const result = path === '/api/sync' ? body?.results?.[0] : undefined;
  if (result) {
    return result.status === 'rejected'
      ? { status: 0, code: result.error.code, issues: [] }
      : { status: 0, code: result.status, issues: [] };
  }
  return {
    status: res.status,
    code: body?.error?.code ?? '',
    issues: (body?.error?.issues ?? []).map((i) => i.code),
  };
}

/** Send each route of `routes` with the shop's ids as `cookie`; list those not answered as `refused` says. */
async function notRefused(
  h: ApiHarness,
  cookie: string,
  routes: RouteCase[],
  shop: Shop,
  refused: (a: Answer) => boolean,
): Promise<string[]> {
  const misses: string[] = [];
  for (const route of routes) {
    const { path, raw } = requestFor(route, shop);
    const answer = await answerOf(await sendRaw(h, cookie, route.method, path, raw), path);
    if (!refused(answer)) {
      misses.push(`${route.method} ${path} ${raw ?? ''}`.slice(0, 300) + ` → ${JSON.stringify(answer)}`);
    }
  }
  return misses;
}

describe.each(DIALECTS)('every live-operations route on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it("answers another company's caller 403 or 404 and changes nothing of the first company", async () => {
    const a = await h.tenant();
    const shop = await aShop(h, a.company, a.cookie);
    const b = await h.tenant();
    await aShop(h, b.company, b.cookie);
    const before = await snapshot(h, a.company.id);
    // Routes that name nothing of the first company create or read the caller's own data. A list save
    // (PUT /api/setup/stages) answers an id it cannot see as a 400 naming the field `not_found`.
    const foreign = ROUTES.filter((r) => r.reach !== 'own');
    const failures = await notRefused(h, b.cookie, foreign, shop, (x) =>
      x.status === 0
        ? x.code === 'NOT_FOUND' || x.code === 'FORBIDDEN'
        : x.status === 403 ||
          x.status === 404 ||
          (x.status === 400 && x.issues.length > 0 && x.issues.every((c) => c === 'not_found')),
    );
    expect(failures).toEqual([]);
    expect(await snapshot(h, a.company.id)).toEqual(before);
  }, 120_000);

  it('refuses a tablet bound to one machine every action on another machine, and changes nothing', async () => {
    const a = await h.tenant();
    const own = await aMachine(h.t.db, a.company, { name: 'Bound lathe' });
    const shop = await aShop(h, a.company, a.cookie);
    const tablet = await aTablet(h.t.db, a.company, own, h.clock.now);
    const answers = new Set(['sync_commands']);
    const before = await snapshot(h, a.company.id, answers);
    const onMachines = ROUTES.filter((r) => r.reach === 'machine');
    const failures = await notRefused(h, tablet.cookie, onMachines, shop, (x) =>
      x.status === 0 ? x.code === 'TABLET_BOUND' : x.status === 403,
    );
    expect(failures).toEqual([]);
    expect(await snapshot(h, a.company.id, answers)).toEqual(before);
  }, 120_000);

  it('refuses every FullProduct route and offline command to a company without FullProduct, and changes nothing', async () => {
    const a = await h.tenant();
    const shop = await aShop(h, a.company, a.cookie);
    await h.t.db
      .updateTable('companies')
      .set({ product_tier: 'utilization' })
      .where('id', '=', a.company.id)
      .execute();
    const before = await snapshot(h, a.company.id, new Set(['sync_commands']));
    const gated = ROUTES.filter((r) => r.full);
    const failures = await notRefused(h, a.cookie, gated, shop, (x) =>
      x.status === 0 ? x.code === 'FORBIDDEN' : x.status === 403,
    );
    expect(failures).toEqual([]);
    expect(await snapshot(h, a.company.id, new Set(['sync_commands']))).toEqual(before);
  }, 120_000);

  it('answers a repeated batch of every command type with the first answers and changes nothing', async () => {
    const a = await h.tenant();
    const shop = await aShop(h, a.company, a.cookie);
    await someStates(h.t.db, a.company, shop.machineId, [
      [shop.T - HOUR, shop.T - HOUR / 2, 'ACTIVE'],
      [shop.T - HOUR / 2, null, 'INACTIVE'],
    ]);
    h.clock.now = shop.T + 10 * MIN;
    // An order in which every command but the manual ones applies (the shop's machine is not a manual work
    // center): the job started by aShop is in setup, the machine is down.
    const order = [
      'categorize_downtime',
      'reject_part',
      'part_correction',
      'operator_login',
      'operator_logout',
      'setup_stage',
      'start_production',
      'split_downtime',
      'manual_add_part',
      'manual_undo',
      'stop_job',
      'start_job',
    ];
    expect([...order].sort()).toEqual(Object.keys(SYNC_PAYLOADS).sort());
    const commands = order.map((type, i) => ({
      id: crypto.randomUUID(),
      type,
      machineId: shop.machineId,
      payload: {
        ...SYNC_PAYLOADS[type]!(shop),
        ...(type === 'operator_login' ? { pinToPreviousEvent: false } : {}),
      },
      occurredAt: shop.T + MIN + i * 1000,
    }));
    const post = async () => {
      const res = await h.send('POST', '/api/sync', a.cookie, { commands });
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: SyncOutcome[] }).results;
    };
    const first = await post();
    expect(first.map((r) => r.status)).toEqual(
      order.map((type) => (type.startsWith('manual_') ? 'rejected' : 'applied')),
    );
    const after = await snapshot(h, a.company.id);
    const again = await post();
    expect(again.map((r) => r.status)).toEqual(order.map(() => 'duplicate'));
    expect(
      again.map((r) => (r.status === 'duplicate' ? r.first : r.status)),
      'each repeat names the first outcome',
    ).toEqual(first.map((r) => r.status));
    expect(await snapshot(h, a.company.id)).toEqual(after);
  }, 120_000);
});
