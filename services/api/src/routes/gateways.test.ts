import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewaySchema } from '@takt/domain';
import { companyScope, takeInbox } from '@takt/db';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { errorOf } from '../testing/live-builders';
import type { Company } from '../repositories/company';

interface PushAnswer {
  ack: number | null;
  accepted: number;
  stored: number;
  duplicates: number;
  rejected: number;
  unknownMachines: string[];
  unknownRecords: number;
}

interface GatewayBody {
  id: string;
  name: string;
  state: string;
  company: { id: string; name: string } | null;
  nonRootMachineCount: number;
  rootMachineCount: number;
  ingestMultiplier: number;
  lastSequence: number | null;
  lastResponse: number | null;
  bufferedRecords: number | null;
  lastShdr: number | null;
  activationStatus: string;
  activation: {
    id: string;
    status: string;
    token: string | null;
    issuedAt: number | null;
    activatedAt: number | null;
  } | null;
  activationId: string | null;
  activationToken: string | null;
  activationTimestamp: number | null;
  actions: string[];
  health: { status: string; label: string; tone: string };
  bufferTone: string | null;
  lastResponseTone: string | null;
  supervisor: { mode: string; version: string | null };
  pusher: { version: string | null; requestedVersion: string | null; pushInterval: number };
}

describe.each(DIALECTS)('gateways on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A company with a root user logged in (internal staff). */
  async function rootTenant() {
    const company = await aCompany(h.t.db);
    const user = await aUser(h.t.db, company, { isRoot: true });
    return { company, cookie: await h.login(user.email, user.password) };
  }

  async function createGateway(cookie: string, body: Record<string, unknown>) {
    const res = await h.send('POST', '/api/gateways', cookie, body);
    expect(res.status).toBe(201);
    return (await res.json()) as { gateway: GatewayBody; token: string };
  }

  /** A gateway of `company` feeding one machine under `ref`. */
  async function gatewayWithMachine(cookie: string, company: Company, ref = 'mill-1') {
    const { gateway, token } = await createGateway(cookie, { name: 'Edge 1', companyId: company.id });
    const machineId = await aMachine(h.t.db, company);
    const bind = await h.send('POST', `/api/gateways/${gateway.id}/machines`, cookie, {
      machineId,
      machineRef: ref,
    });
    expect(bind.status).toBe(201);
    return { gateway, token, machineId };
  }

  const push = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    h.app.request('/api/gateway-push', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const records = (from: number, to: number, ref = 'mill-1') =>
    Array.from({ length: to - from + 1 }, (_, i) => ({
      seq: from + i,
      machineRef: ref,
      line: `2025-11-22T08:00:${String(from + i).padStart(2, '0')}.000Z|execution|ACTIVE|part_count|${from + i}`,
    }));

  const count = async (table: 'observations' | 'ingest_inbox', machineId: string) => {
    const row = await h.t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('creates a gateway for root users, shows its token once and lists it with edge health', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token } = await createGateway(cookie, {
      name: 'Edge A',
      companyId: company.id,
      assetSerial: 'SN-1',
      edgeRef: 'edge-a',
      ingestMultiplier: 2.5,
      supervisor: { mode: 'Dry Run' },
      pusher: { pushInterval: 5000 },
    });
    expect(token).toMatch(/^tgw_[A-Za-z0-9_-]{43}$/);
    expect(gateway).toMatchObject({
      name: 'Edge A',
      company: { id: company.id, name: company.name },
      ingestMultiplier: 2.5,
      state: 'active',
      activationStatus: 'pending',
      supervisor: { mode: 'Dry Run', version: null },
      pusher: { pushInterval: 5000, drainCount: 1000 },
      health: { status: 'NeverReported', label: 'Never Reported', tone: 'warning' },
      actions: ['reset', 'disable', 'deregister'],
    });
    // Only the hash is stored.
    const row = await h.t.db
      .selectFrom('gateways')
      .selectAll()
      .where('id', '=', gateway.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(JSON.stringify(await (await h.get(`/api/gateways/${gateway.id}`, cookie)).json())).not.toContain(
      token,
    );

    const list = (await (await h.get('/api/gateways', cookie)).json()) as GatewayBody[];
    expect(list.map((g) => g.id)).toEqual([gateway.id]);
  });

  it('shows the activation (reports-admin §3): pending with the token masked, activated by the first push', async () => {
    const { company, cookie } = await rootTenant();
    const created = h.clock.now;
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const hint = `tgw_...${token.slice(-6)}`;
    expect(gateway).toMatchObject({
      activationStatus: 'pending',
      activationId: expect.any(String) as string,
      activationToken: hint,
      activationTimestamp: null,
      activation: { status: 'pending', token: hint, issuedAt: created, activatedAt: null },
    });
    expect(gateway.activation?.id).toBe(gateway.activationId);
    // Neither the list, the record nor the company admins' status ever carries the push token.
    const listed = async () => (await (await h.get('/api/gateways', cookie)).json()) as GatewayBody[];
    const admin = await aUser(h.t.db, company, { role: 'admin' });
    const adminCookie = await h.login(admin.email, admin.password);
    for (const body of [
      await listed(),
      await (await h.get(`/api/gateways/${gateway.id}`, cookie)).json(),
      await (await h.get('/api/gateways/status', adminCookie)).json(),
    ])
      expect(JSON.stringify(body)).not.toContain(token.slice(4, -6));
    // The hint does not push.
    expect((await push(hint, { gatewayId: gateway.id, records: records(1, 1) })).status).toBe(401);
    expect((await listed())[0]).toMatchObject({ activationStatus: 'pending', activationTimestamp: null });

    // A supervisor join is not an activation; the first accepted push is, and later pushes keep its time.
    h.clock.now += 60_000;
    const join = await h.app.request('/api/gateway-push/join', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(join.status).toBe(200);
    expect((await listed())[0]?.activationTimestamp).toBeNull();
    h.clock.now += 60_000;
    const activatedAt = h.clock.now;
    await push(token, { gatewayId: gateway.id, records: records(1, 2) });
    h.clock.now += 60_000;
    await push(token, { gatewayId: gateway.id, records: records(3, 4) });
    const [active] = await listed();
    expect(active).toMatchObject({
      activationStatus: 'activated',
      activationId: gateway.activationId,
      activationToken: hint,
      activationTimestamp: activatedAt,
      activation: { id: gateway.activationId, status: 'activated', issuedAt: created, activatedAt },
      lastResponse: h.clock.now,
    });
    // The domain's §3 Agent/gateway schema reads the record, pending (above) and activated alike.
    expect(gatewaySchema.safeParse(gateway).error).toBeUndefined();
    expect(gatewaySchema.safeParse(active).error).toBeUndefined();
    // The "Unactivated Edges" filter leaves it out now.
    expect(await (await h.get('/api/gateways?unactivated=true', cookie)).json()).toEqual([]);

    // Reset issues a new token: a new activation, pending again until the new token's first push.
    h.clock.now += 60_000;
    const resetAt = h.clock.now;
    const reset = (await (await h.send('POST', `/api/gateways/${gateway.id}/reset`, cookie)).json()) as {
      token: string;
      gateway: GatewayBody;
    };
    const freshHint = `tgw_...${reset.token.slice(-6)}`;
    expect(reset.gateway).toMatchObject({
      activationStatus: 'pending',
      activationToken: freshHint,
      activationTimestamp: null,
      activation: { status: 'pending', token: freshHint, issuedAt: resetAt, activatedAt: null },
    });
    expect(reset.gateway.activationId).not.toBe(gateway.activationId);
    expect((await listed()).map((g) => g.id)).toEqual([gateway.id]);
    h.clock.now += 1_000;
    await push(reset.token, { gatewayId: gateway.id, records: records(1, 1) });
    expect((await listed())[0]).toMatchObject({
      activationStatus: 'activated',
      activationTimestamp: resetAt + 1_000,
    });

    // Deregister ends the activation: no token, nothing to show.
    const dereg = await h.send('POST', `/api/gateways/${gateway.id}/deregister`, cookie);
    expect(await dereg.json()).toMatchObject({
      activationStatus: 'deregistered',
      activation: null,
      activationId: null,
      activationToken: null,
      activationTimestamp: null,
    });
    expect(await count('ingest_inbox', machineId)).toBe(5);
  });

  it('refuses internal routes to non-root users (403) and callers without a session (401)', async () => {
    const { company } = await rootTenant();
    const admin = await h.tenant();
    expect((await h.get('/api/gateways', admin.cookie)).status).toBe(403);
    expect(
      (await h.send('POST', '/api/gateways', admin.cookie, { name: 'x', companyId: company.id })).status,
    ).toBe(403);
    expect((await h.get('/api/gateways', '')).status).toBe(401);
  });

  it('filters the list by Inactive Companies, sorts it both ways and offers every company (reports-admin §2)', async () => {
    const { company: active, cookie } = await rootTenant();
    await aMachine(h.t.db, active);
    const idle = await aCompany(h.t.db, { name: 'Idle Works' });
    const decommissioned = await aMachine(h.t.db, idle);
    await h.t.db
      .updateTable('machines')
      .set({ decommissioned_at: h.clock.now })
      .where('id', '=', decommissioned)
      .execute();
    await createGateway(cookie, { name: 'Alpha', companyId: active.id });
    await createGateway(cookie, { name: 'Bravo', companyId: idle.id });
    await createGateway(cookie, { name: 'Spare' });
    const names = async (query: string) =>
      ((await (await h.get(`/api/gateways${query}`, cookie)).json()) as GatewayBody[]).map((g) => g.name);

    // A company whose machines are all decommissioned is inactive; a gateway without a company has none.
    expect(await names('?inactiveCompanies=true')).toEqual(['Bravo']);
    expect(await names('?sort=name&direction=desc')).toEqual(['Spare', 'Bravo', 'Alpha']);
    expect(await names('?sort=name&direction=asc&inactiveCompanies=false')).toEqual([
      'Alpha',
      'Bravo',
      'Spare',
    ]);

    const options = (await (await h.get('/api/gateways/companies', cookie)).json()) as Array<{
      id: string;
      name: string;
    }>;
    expect(options.map((o) => o.id).sort()).toEqual([active.id, idle.id].sort());
    expect(options.find((o) => o.id === idle.id)?.name).toBe('Idle Works');
    const admin = await h.tenant();
    expect((await h.get('/api/gateways/companies', admin.cookie)).status).toBe(403);
  });

  it('validates names and the ingest multiplier (reports-admin §5: 0.1 to 100, step 0.1)', async () => {
    const { cookie } = await rootTenant();
    const bad = async (body: unknown, message: string) => {
      const res = await h.send('POST', '/api/gateways', cookie, body);
      expect(res.status).toBe(400);
      const e = await errorOf(res);
      expect(e.code).toBe('VALIDATION_ERROR');
      expect(e.issues?.map((i) => i.message)).toContain(message);
    };
    await bad({}, 'Missing required field: Name');
    await bad({ name: '  ' }, 'Missing required field: Name');
    await bad({ name: 'x', ingestMultiplier: 0.05 }, 'Ingest multiplier must be at least 0.1');
    await bad({ name: 'x', ingestMultiplier: 100.1 }, 'Ingest multiplier must be at most 100');
    await bad({ name: 'x', ingestMultiplier: 1.25 }, 'Ingest multiplier must be a multiple of 0.1');
    await bad({ name: 'x', companyId: 'nope' }, 'Company not found.');

    const { gateway } = await createGateway(cookie, { name: 'x' });
    const res = await h.send('PUT', `/api/gateways/${gateway.id}`, cookie, {
      name: 'Renamed',
      ingestMultiplier: 0.3,
      supervisor: { mode: 'Standby' },
      pusher: { drainCount: 5 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Renamed',
      ingestMultiplier: 0.3,
      supervisor: { mode: 'Standby' },
      pusher: { drainCount: 5, pushInterval: 1000 },
    });
    const put = await h.send('PUT', `/api/gateways/${gateway.id}`, cookie, { supervisor: { mode: 'Sleep' } });
    expect(put.status).toBe(400);
    expect((await h.send('PUT', '/api/gateways/nope', cookie, { name: 'x' })).status).toBe(404);
  });

  it('stores a push exactly once: redelivery and overlapping batches take only new sequences', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);

    const first = await push(token, { gatewayId: gateway.id, records: records(1, 3) });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      ack: 3,
      accepted: 3,
      stored: 3,
      duplicates: 0,
      unknownMachines: [],
    });
    expect(await count('observations', machineId)).toBe(6);
    expect(await count('ingest_inbox', machineId)).toBe(3);

    // The answer was lost; the gateway sends the same batch again.
    const again = await push(token, { gatewayId: gateway.id, records: records(1, 3) });
    expect(await again.json()).toMatchObject({ ack: 3, accepted: 0, duplicates: 3 });
    expect(await count('observations', machineId)).toBe(6);

    const overlap = await push(token, { gatewayId: gateway.id, records: records(2, 5) });
    expect(await overlap.json()).toMatchObject({ ack: 5, accepted: 2, duplicates: 2 });
    expect(await count('observations', machineId)).toBe(10);
    expect(await count('ingest_inbox', machineId)).toBe(5);

    // Out of order inside a batch is sorted; the stored values are the parsed SHDR pairs.
    const shuffled = await push(token, { gatewayId: gateway.id, records: [...records(6, 8)].reverse() });
    expect(await shuffled.json()).toMatchObject({ ack: 8, accepted: 3 });
    const latest = await h.t.db
      .selectFrom('observations')
      .select(['key', 'value', 'ts'])
      .where('machine_id', '=', machineId)
      .where('key', '=', 'part_count')
      .orderBy('ts', 'desc')
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ key: 'part_count', value: '8', ts: Date.parse('2025-11-22T08:00:08.000Z') });

    const view = (await (await h.get(`/api/gateways/${gateway.id}`, cookie)).json()) as GatewayBody;
    expect(view).toMatchObject({
      lastSequence: 8,
      lastResponse: h.clock.now,
      lastShdr: h.clock.now,
      activationStatus: 'activated',
      nonRootMachineCount: 1,
    });
    const source = await h.t.db
      .selectFrom('machine_sources')
      .selectAll()
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    expect([source.stat_lines, source.stat_observations, source.last_line_at]).toEqual([8, 16, h.clock.now]);
  });

  it('acknowledges records for unknown machines without storing them', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const body = {
      gatewayId: gateway.id,
      records: [...records(1, 2), ...records(3, 4, 'ghost'), ...records(5, 5, 'lathe-9')],
    };
    const res = await push(token, body);
    expect(await res.json()).toMatchObject({
      ack: 5,
      accepted: 5,
      stored: 2,
      unknownMachines: ['ghost', 'lathe-9'],
      unknownRecords: 3,
    });
    expect(await count('ingest_inbox', machineId)).toBe(2);
    const total = await h.t.db
      .selectFrom('ingest_inbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(2);
    expect(await (await push(token, body)).json()).toMatchObject({ ack: 5, accepted: 0, duplicates: 5 });
  });

  it('stores a batch pushed concurrently several times exactly once', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const body = { gatewayId: gateway.id, records: records(1, 40) };
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await push(token, body);
        expect(res.status).toBe(200);
        return (await res.json()) as PushAnswer;
      }),
    );
    expect(answers.map((a) => a.ack)).toEqual(Array(6).fill(40));
    expect(answers.reduce((n, a) => n + a.accepted, 0)).toBe(40);
    expect(await count('ingest_inbox', machineId)).toBe(40);
    expect(await count('observations', machineId)).toBe(80);
  });

  it('authenticates pushes by gateway token only', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token } = await gatewayWithMachine(cookie, company);
    const body = { gatewayId: gateway.id, records: records(1, 1) };
    const noToken = await h.app.request('/api/gateway-push', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(noToken.status).toBe(401);
    expect((await push('tgw_' + 'x'.repeat(43), body)).status).toBe(401);
    expect((await push('not-a-token', body)).status).toBe(401);
    // A session cookie is no gateway token…
    const withCookie = await h.app.request('/api/gateway-push', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify(body),
    });
    expect(withCookie.status).toBe(401);
    // …and a gateway token reads nothing behind the session guard.
    const dash = await h.app.request('/api/dashboard', { headers: { authorization: `Bearer ${token}` } });
    expect(dash.status).toBe(401);
    expect(
      (await h.app.request('/api/gateways', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);

    // The body must name the token's gateway.
    const other = await push(token, { gatewayId: 'someone-else', records: records(1, 1) });
    expect(other.status).toBe(400);
    expect((await errorOf(other)).issues?.[0]).toMatchObject({ field: 'gatewayId' });
  });

  it('answers 400 with the list of problems for a malformed batch', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token } = await gatewayWithMachine(cookie, company);
    const res = await push(token, {
      gatewayId: gateway.id,
      records: [{ seq: -1, machineRef: '', line: 'x' }, { seq: 1.5 }],
    });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.issues?.map((i) => i.field)).toEqual(
      expect.arrayContaining(['records.0.seq', 'records.0.machineRef', 'records.1.seq', 'records.1.line']),
    );
    expect((await push(token, '{"gatewayId":')).status).toBe(400);
    const header = await push(
      token,
      { gatewayId: gateway.id, records: [] },
      { 'X-Buffered-Records': 'lots' },
    );
    expect(header.status).toBe(400);
  });

  it('keeps buffer size and last response for edge health (reports-admin §4, §9)', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const health = async () =>
      (await (await h.get(`/api/gateways/${gateway.id}`, cookie)).json()) as GatewayBody;

    await push(token, { gatewayId: gateway.id, records: records(1, 1) }, { 'X-Buffered-Records': '1500' });
    // The machine behind it has no live row yet: its state is unknown.
    expect(await health()).toMatchObject({
      bufferedRecords: 1500,
      bufferTone: 'danger',
      lastResponseTone: 'success',
      health: { status: 'Unknown', tone: 'danger' },
    });
    await h.t.db
      .insertInto('machine_live')
      .values({
        machine_id: machineId,
        company_id: company.id,
        state: 'ACTIVE',
        state_since: h.clock.now,
        connection: 'CONNECTED',
        connection_since: h.clock.now,
        last_heartbeat: h.clock.now,
        in_setup: 0,
        updated_at: h.clock.now,
      })
      .execute();
    // The body's count wins over the header.
    await push(
      token,
      { gatewayId: gateway.id, records: [], bufferedRecords: 10 },
      { 'X-Buffered-Records': '99' },
    );
    expect(await health()).toMatchObject({
      bufferedRecords: 10,
      bufferTone: 'success',
      health: { status: 'Normal' },
    });

    h.clock.now += 300_001;
    expect(await health()).toMatchObject({
      lastResponseTone: 'danger',
      health: { status: 'NotReporting', label: 'Not Reporting', tone: 'danger' },
    });
    // It answers again, but its machine's heartbeat is older than 5 minutes: Degraded.
    await push(token, { gatewayId: gateway.id, records: [] });
    expect(await health()).toMatchObject({
      health: { status: 'MixedStatus', label: 'Degraded', tone: 'warning' },
    });
  });

  it('enables, disables, resets and deregisters per reports-admin §2', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const act = (action: string) => h.send('POST', `/api/gateways/${gateway.id}/${action}`, cookie);
    await push(token, { gatewayId: gateway.id, records: records(1, 5) });

    expect((await act('enable')).status).toBe(409);
    const disabled = await act('disable');
    expect(await disabled.json()).toMatchObject({ state: 'inactive', actions: ['enable'] });
    const refused = await push(token, { gatewayId: gateway.id, records: records(6, 6) });
    expect(refused.status).toBe(403);
    expect((await act('reset')).status).toBe(409);
    expect((await act('disable')).status).toBe(409);
    expect(await (await act('enable')).json()).toMatchObject({ state: 'active' });

    // Reset: a new token, and the sequence starts over.
    const reset = await act('reset');
    expect(reset.status).toBe(200);
    const { token: fresh, gateway: after } = (await reset.json()) as { token: string; gateway: GatewayBody };
    expect(after).toMatchObject({ lastSequence: null, activationStatus: 'pending', lastResponse: null });
    expect((await push(token, { gatewayId: gateway.id, records: records(6, 6) })).status).toBe(401);
    const restarted = await push(fresh, { gatewayId: gateway.id, records: records(1, 2) });
    expect(await restarted.json()).toMatchObject({ ack: 2, accepted: 2 });
    expect(await count('ingest_inbox', machineId)).toBe(7);

    // Deregister: no company, no token, no machines.
    const dereg = await act('deregister');
    expect(await dereg.json()).toMatchObject({
      company: null,
      state: 'inactive',
      activationStatus: 'deregistered',
      nonRootMachineCount: 0,
    });
    expect((await push(fresh, { gatewayId: gateway.id, records: records(3, 3) })).status).toBe(401);
    // Without a company, reset and deregister are refused with the MissingField text.
    expect((await act('enable')).status).toBe(200);
    for (const action of ['reset', 'deregister']) {
      const res = await act(action);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('Missing required field: Company');
    }

    const del = await h.send('DELETE', `/api/gateways/${gateway.id}`, cookie);
    expect(del.status).toBe(204);
    expect((await h.get(`/api/gateways/${gateway.id}`, cookie)).status).toBe(404);
    expect((await act('enable')).status).toBe(404);
  });

  it('records the supervisor join and gates pusher updates on version 3.0.0', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token } = await createGateway(cookie, { name: 'E', companyId: company.id });
    const update = () =>
      h.send('POST', `/api/gateways/${gateway.id}/pusher-update`, cookie, { version: '3.1.0' });
    expect((await update()).status).toBe(409);
    const join = async (body: unknown) =>
      h.app.request('/api/gateway-push/join', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await join({ pusherVersion: '2.9.9', supervisorVersion: '1.4.0' })).status).toBe(200);
    expect((await update()).status).toBe(409);
    await join({ pusherVersion: '3.0.0' });
    const ok = await update();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      pusher: { version: '3.0.0', requestedVersion: '3.1.0' },
      supervisor: { version: '1.4.0' },
      supervisorLastJoin: h.clock.now,
    });
  });

  it('binds only machines of the gateway’s own company', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway } = await gatewayWithMachine(cookie, company);
    const other = await aCompany(h.t.db);
    const foreign = await aMachine(h.t.db, other);
    const res = await h.send('POST', `/api/gateways/${gateway.id}/machines`, cookie, {
      machineId: foreign,
      machineRef: 'm2',
    });
    expect(res.status).toBe(404);
    const mine = await aMachine(h.t.db, company);
    const taken = await h.send('POST', `/api/gateways/${gateway.id}/machines`, cookie, {
      machineId: mine,
      machineRef: 'mill-1',
    });
    expect(taken.status).toBe(409);
    const missing = await h.send('POST', `/api/gateways/${gateway.id}/machines`, cookie, { machineId: mine });
    expect((await errorOf(missing)).message).toBe('Missing required field: Machine Ref');
  });

  it('shows company admins the status of their own gateways only', async () => {
    const root = await rootTenant();
    const admin = await h.tenant();
    const operator = await aUser(h.t.db, admin.company, { role: 'operator' });
    const opCookie = await h.login(operator.email, operator.password);
    await createGateway(root.cookie, { name: 'Theirs', companyId: root.company.id });
    const { gateway } = await createGateway(root.cookie, { name: 'Mine', companyId: admin.company.id });
    const res = await h.get('/api/gateways/status', admin.cookie);
    expect(res.status).toBe(200);
    const list = (await res.json()) as Array<{ id: string; name: string; health: { status: string } }>;
    expect(list.map((g) => [g.id, g.name, g.health.status])).toEqual([[gateway.id, 'Mine', 'NeverReported']]);
    expect((await h.get('/api/gateways/status', opCookie)).status).toBe(403);
  });

  it('hands pushed lines to the ingest worker in arrival order, each once (what the worker takes)', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    await push(token, { gatewayId: gateway.id, records: [...records(1, 3)].reverse() });
    h.clock.now += 1000;
    await push(token, { gatewayId: gateway.id, records: records(4, 5) });
    await push(token, { gatewayId: gateway.id, records: records(4, 5) }); // a redelivery
    const taken = await takeInbox(h.t.db, [machineId], 4);
    expect(taken.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(taken[0]).toMatchObject({
      company_id: company.id,
      machine_id: machineId,
      line: records(1, 1)[0]?.line,
    });
    expect((await takeInbox(h.t.db, [machineId], 10)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await takeInbox(h.t.db, [], 10)).toEqual([]);
    // Another company's scope sees no inbox rows of this machine.
    const other = await aCompany(h.t.db);
    const rows = await companyScope(h.t.db, other.id).selectFrom('ingest_inbox').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('stores a line with a NUL character as its adapter would be read: NUL as U+FFFD, nothing refused', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token, machineId } = await gatewayWithMachine(cookie, company);
    const res = await push(token, {
      gatewayId: gateway.id,
      records: [
        {
          seq: 1,
          machineRef: 'mill-1',
          line: '2025-11-22T08:00:01.000Z|program|O1\u0000\u0000|part_count|7',
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ack: 1, stored: 1 });
    const stored = await h.t.db
      .selectFrom('observations')
      .select(['key', 'value'])
      .where('machine_id', '=', machineId)
      .orderBy('key')
      .execute();
    expect(stored).toEqual([
      { key: 'part_count', value: '7' },
      { key: 'program', value: 'O1\uFFFD\uFFFD' },
    ]);
    const [inbox] = await h.t.db
      .selectFrom('ingest_inbox')
      .select('line')
      .where('machine_id', '=', machineId)
      .execute();
    expect(inbox?.line).toBe('2025-11-22T08:00:01.000Z|program|O1\uFFFD\uFFFD|part_count|7');
  });

  it('never answers 500 to random push bodies', async () => {
    const { company, cookie } = await rootTenant();
    const { gateway, token } = await gatewayWithMachine(cookie, company);
    const record = fc.record(
      {
        seq: fc.oneof(fc.nat(1000), fc.integer(), fc.double(), fc.string(), fc.constant(null)),
        machineRef: fc.oneof(fc.constantFrom('mill-1', 'ghost', ''), fc.string({ unit: 'binary' })),
        line: fc.oneof(
          // Any code point, NUL included (PostgreSQL cannot store U+0000 in text).
          fc.string({ unit: 'binary' }),
          fc.constantFrom(
            '|||',
            '2025-01-01T00:00:00Z|x|1|y',
            '* PING',
            'a|b|c|d|e|f|g',
            '@ASSET@|a|b|--multiline--x',
          ),
          fc.integer(),
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.record({
        gatewayId: fc.oneof(fc.constant(gateway.id), fc.string()),
        records: fc.oneof(fc.array(record, { maxLength: 20 }), fc.anything()),
        bufferedRecords: fc.oneof(fc.nat(), fc.integer(), fc.constant(undefined)),
      }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await push(token, b === undefined ? 'null' : JSON.stringify(b));
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        const res = await push(token, text);
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 30 },
    );
  });
});
