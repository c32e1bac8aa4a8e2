import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { tabletSchema } from '@takt/domain';
import type { SyncOutcome } from '@takt/domain';
import { BOUND_ELSEWHERE } from '../auth/tablet-binding';
import { inProcessBus, postgresBus } from '../live/bus';
import { CODE_TTL_MS, renewCode, requestCode } from '../repositories/tablets';
import { apiHarness } from '../testing/app';
import { aTablet as aTabletIn } from '../testing/tablet-builders';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import type { Company } from '../repositories/company';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Node } from '../testing/ws';
import { login, openSocket, startNode, stopAll } from '../testing/ws';
import { aRejectReason } from '../testing/downtime-builders';
import { madeParts } from '../testing/parts-builders';

// live-operations §2 tablet registration and management, §7 Tablets and the tablet-auth socket; a
// tablet bound to one machine cannot act on another.

const call = (node: Node, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`http://${node.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: `http://${node.url}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const socket = (node: Node, cookie?: string) => openSocket(node, '/tablet-auth', cookie);

describe.each(DIALECTS)('tablet registration over the tablet-auth socket on %s', (dialect) => {
  let t: TestDb;
  const nodes: Node[] = [];
  const sockets: WebSocket[] = [];

  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await stopAll(sockets, nodes);
    await t.cleanup();
  });

  async function registerFlow(tabletNode: Node, adminNode: Node) {
    const company = await aCompany(t.db);
    const admin = await aUser(t.db, company, { role: 'admin' });
    const machine = await aMachine(t.db, company, { name: 'Lathe 7' });
    const adminCookie = await login(adminNode, admin.email, admin.password);

    // 1. The tablet connects and gets a code with an expiry.
    const tab = await socket(tabletNode);
    sockets.push(tab.ws);
    const before = Date.now();
    tab.send({ event: 'get_code', serial_number: 'SN-0042' });
    const sent = await tab.next((m) => m.event === 'send_code', 'a code');
    expect(sent.code).toMatch(/^[A-Z2-9]{6}$/);
    expect(sent.expiresAt as number).toBeGreaterThanOrEqual(before + CODE_TTL_MS);
    expect(sent.expiresAt as number).toBeLessThanOrEqual(Date.now() + CODE_TTL_MS);

    // Asking again while the code lives gives the same code.
    tab.send({ event: 'get_code', serial_number: 'SN-0042' });
    await expect.poll(() => tab.messages.filter((m) => m.event === 'send_code').length).toBe(2);
    expect(tab.messages.filter((m) => m.event === 'send_code')[1]!.code).toBe(sent.code);

    // 2. An admin associates it (lower case and spaces are forgiven).
    const res = await call(
      adminNode,
      'POST',
      '/api/tablets/associate',
      { cookie: adminCookie },
      {
        code: ` ${String(sent.code).toLowerCase()} `,
        machineId: machine,
        remote_identifier: 'Lathe tablet',
      },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      serial_number: 'SN-0042',
      machine_id: machine,
      remote_identifier: 'Lathe tablet',
      dashboardView: 'opdash',
      state: 'associated',
      notified: true,
    });

    // 3. The socket hears: associated, then registered with the device token.
    await tab.next((m) => m.event === 'associated', 'associated');
    const registered = await tab.next((m) => m.event === 'registered', 'registered');
    const events = tab.messages.map((m) => m.event);
    expect(events.indexOf('associated')).toBeLessThan(events.indexOf('registered'));
    expect(registered).toMatchObject({ machineId: machine, dashboardView: 'opdash' });
    const token = String(registered.token);
    expect(token).toMatch(/^ttb_/);
    // Only the hash is kept.
    const row = await t.db
      .selectFrom('tablets')
      .selectAll()
      .where('serial_number', '=', 'SN-0042')
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(token);
    expect(row.code).toBeNull();

    // 4. The tablet activates with the token and gets its cookie.
    const act = await call(tabletNode, 'POST', '/tablet/activate', { authorization: `Bearer ${token}` });
    expect(act.status).toBe(200);
    // The answer is the tablet as live-operations §3 has it, remote identifier included (tabletSchema).
    const activated = (await act.json()) as { redirectTo: string; tablet: unknown };
    expect(activated.redirectTo).toBe(`/${machine}`);
    expect(tabletSchema.strict().parse(activated.tablet)).toEqual({
      id: row.id,
      serial_number: 'SN-0042',
      remote_identifier: 'Lathe tablet',
      machine_id: machine,
      dashboardView: 'opdash',
    });
    const setCookie = act.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^takt_tablet=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    const tabletCookie = setCookie.split(';')[0]!;

    // The tablet is now a caller: a synthetic operator of the company.
    const me = await call(tabletNode, 'GET', '/api/me', { cookie: tabletCookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ role: 'operator', isAdmin: false, company: { id: company.id } });
    // …that is no admin.
    expect((await call(tabletNode, 'GET', '/api/tablets', { cookie: tabletCookie })).status).toBe(403);

    const list = await call(adminNode, 'GET', '/api/tablets', { cookie: adminCookie });
    expect(await list.json()).toEqual([expect.objectContaining({ id: row.id, state: 'active' })]);
    // The registration page leaves; from now on the tablet listens through `join`.
    tab.ws.close();
    return { company, machine, adminCookie, tabletCookie, tabletId: row.id, token };
  }

  it('registers a tablet: code, association, token, activation; then refresh and restart reach it', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const { adminCookie, tabletCookie, tabletId } = await registerFlow(node, node);

    // The registered tablet joins its socket and hears the admin's pushes.
    const live = await socket(node, tabletCookie);
    sockets.push(live.ws);
    live.send({ event: 'join' });
    expect(await live.next((m) => m.event === 'join', 'joined')).toMatchObject({ tablet_id: tabletId });

    const refresh = await call(node, 'POST', `/api/tablets/${tabletId}/refresh`, { cookie: adminCookie });
    expect(refresh.status).toBe(200);
    expect(await refresh.json()).toEqual({ pushed: [tabletId], notPushed: [] });
    await live.next((m) => m.event === 'refresh', 'refresh');

    const all = await call(node, 'POST', '/api/tablets/refresh-all', { cookie: adminCookie });
    expect(await all.json()).toEqual({
      pushed: [tabletId],
      notPushed: [],
      message: 'Refreshing All Tablets',
    });

    live.ws.terminate();
    await new Promise((r) => setTimeout(r, 100));
    const restart = await call(node, 'POST', `/api/tablets/${tabletId}/restart`, { cookie: adminCookie });
    expect(restart.status).toBe(409);
    expect((await restart.json()).error.message).toBe('Unable to restart application on tablet Lathe tablet');
    const unreached = await call(node, 'POST', `/api/tablets/${tabletId}/refresh`, { cookie: adminCookie });
    expect(unreached.status).toBe(409);
    expect((await unreached.json()).error).toMatchObject({
      code: 'TABLET_UNREACHABLE',
      message: 'Unable to refresh tablet Lathe tablet',
    });
    const none = await call(node, 'POST', '/api/tablets/refresh-all', { cookie: adminCookie });
    expect(await none.json()).toEqual({
      pushed: [],
      notPushed: [tabletId],
      message: 'Unable to refresh one or more tablets',
    });
  });

  it('refuses join from a socket without a registered tablet', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const s = await socket(node);
    sockets.push(s.ws);
    s.send({ event: 'join' });
    expect(await s.next((m) => m.event === 'error', 'an error')).toMatchObject({ code: 'NOT_AUTHENTICATED' });
  });

  if (dialect === 'postgres') {
    it('associates on one API process a tablet whose socket is held by another', async () => {
      const a = await startNode(t, dialect, await postgresBus(t.url));
      nodes.push(a);
      const b = await startNode(t, dialect, await postgresBus(t.url));
      nodes.push(b);
      await registerFlow(a, b);
    });
  }
});

describe.each(DIALECTS)('tablet routes on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const errorOf = async (res: Response) => (await res.json()).error as { code: string; message: string };

  /** A tablet registered and activated without the socket (the socket flow is tested above). */
  const aTablet = (company: Company, machineId: string | null, serial = 'SN-1') =>
    aTabletIn(h.t.db, company, machineId, h.clock.now, serial);

  it('refuses an expired code and an unknown one', async () => {
    const admin = await h.tenant();
    const { code, tablet: pending } = await requestCode(h.t.db, 'SN-9', h.clock.now);
    h.clock.now += CODE_TTL_MS + 1;
    const late = await h.send('POST', '/api/tablets/associate', admin.cookie, { code });
    expect(late.status).toBe(404);
    expect(await errorOf(late)).toEqual({
      code: 'CODE_NOT_FOUND',
      message: 'The code is invalid or has expired.',
    });
    // Its socket asking again after expiry gets a new code for the same pending tablet.
    const again = (await renewCode(h.t.db, pending.id, h.clock.now))!;
    expect(again.tablet.id).toBe(pending.id);
    expect(again.expiresAt).toBe(h.clock.now + CODE_TTL_MS);
    const ok = await h.send('POST', '/api/tablets/associate', admin.cookie, { code: again.code });
    expect(ok.status).toBe(200);
    const empty = await h.send('POST', '/api/tablets/associate', admin.cookie, { code: '' });
    expect(empty.status).toBe(400);
  });

  it('keeps tablets to their company: another admin cannot associate, see, edit, revoke or delete them', async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const myMachine = await aMachine(h.t.db, mine.company);
    const { code, tablet } = await requestCode(h.t.db, 'SN-2', h.clock.now);
    // Not with another company's machine…
    const foreign = await h.send('POST', '/api/tablets/associate', theirs.cookie, {
      code,
      machineId: myMachine,
    });
    expect(foreign.status).toBe(404);
    expect(
      (await h.send('POST', '/api/tablets/associate', mine.cookie, { code, machineId: myMachine })).status,
    ).toBe(200);
    // …and once claimed, the code is spent.
    expect((await h.send('POST', '/api/tablets/associate', theirs.cookie, { code })).status).toBe(404);

    expect(await (await h.get('/api/tablets', theirs.cookie)).json()).toEqual([]);
    expect((await h.get(`/api/tablets/${tablet.id}`, theirs.cookie)).status).toBe(404);
    const one = await h.get(`/api/tablets/${tablet.id}`, mine.cookie);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: tablet.id, machine_id: myMachine, serial_number: 'SN-2' });
    expect(
      (await h.send('PUT', `/api/tablets/${tablet.id}`, theirs.cookie, { remote_identifier: 'x' })).status,
    ).toBe(404);
    expect((await h.send('POST', `/api/tablets/${tablet.id}/revoke`, theirs.cookie)).status).toBe(404);
    expect((await h.send('POST', `/api/tablets/${tablet.id}/refresh`, theirs.cookie)).status).toBe(404);
    expect((await h.send('DELETE', `/api/tablets/${tablet.id}`, theirs.cookie)).status).toBe(404);
    const list = (await (await h.get('/api/tablets', mine.cookie)).json()) as Array<{
      id: string;
      state: string;
    }>;
    expect(list).toEqual([expect.objectContaining({ id: tablet.id, state: 'associated' })]);

    // Managers and operators are no admins.
    const manager = await aUser(h.t.db, mine.company, { role: 'manager' });
    expect((await h.get('/api/tablets', await h.login(manager.email, manager.password))).status).toBe(403);
  });

  it('edits, revokes and deletes a tablet; a revoked or deleted token answers 401', async () => {
    const me = await h.tenant();
    const a = await aMachine(h.t.db, me.company);
    const tab = await aTablet(me.company, null);
    expect((await h.get('/api/me', tab.cookie)).status).toBe(200);
    const bearer = await h.app.request('/api/me', { headers: { authorization: `Bearer ${tab.token}` } });
    expect(bearer.status).toBe(200);

    const put = await h.send('PUT', `/api/tablets/${tab.id}`, me.cookie, {
      remote_identifier: 'Front',
      machine_id: a,
      dashboardView: 'opdash',
    });
    expect(await put.json()).toMatchObject({ remote_identifier: 'Front', machine_id: a, state: 'active' });
    const badMachine = await h.send('PUT', `/api/tablets/${tab.id}`, me.cookie, { machine_id: 'nope' });
    expect(badMachine.status).toBe(404);

    const revoke = await h.send('POST', `/api/tablets/${tab.id}/revoke`, me.cookie);
    expect(await revoke.json()).toMatchObject({ state: 'revoked' });
    expect((await h.get('/api/me', tab.cookie)).status).toBe(401);
    const revokedBearer = await h.app.request('/api/me', {
      headers: { authorization: `Bearer ${tab.token}` },
    });
    expect(revokedBearer.status).toBe(401);
    const reactivate = await h.app.request('/tablet/activate', {
      method: 'POST',
      headers: { authorization: `Bearer ${tab.token}`, 'content-type': 'application/json' },
    });
    expect(reactivate.status).toBe(401);

    const other = await aTablet(me.company, null, 'SN-3');
    expect((await h.send('DELETE', `/api/tablets/${other.id}`, me.cookie)).status).toBe(204);
    expect((await h.get('/api/me', other.cookie)).status).toBe(401);
    expect((await h.get('/api/me', 'takt_tablet=ttb_made-up')).status).toBe(401);
  });

  it("purges only the revoked tablets, and only the caller company's (reports-admin §7, decision 0890)", async () => {
    const me = await h.tenant();
    const them = await h.tenant();
    const kept = await aTablet(me.company, null, 'SN-kept');
    const gone = await aTablet(me.company, null, 'SN-gone');
    const theirs = await aTablet(them.company, null, 'SN-theirs');
    expect((await h.send('POST', `/api/tablets/${gone.id}/revoke`, me.cookie)).status).toBe(200);
    expect((await h.send('POST', `/api/tablets/${theirs.id}/revoke`, them.cookie)).status).toBe(200);

    const purge = await h.send('POST', '/api/tablets/purge', me.cookie);
    expect(purge.status).toBe(200);
    expect(await purge.json()).toEqual({ purgedTabletCount: 1 });
    const mine = (await (await h.get('/api/tablets', me.cookie)).json()) as Array<{ id: string }>;
    expect(mine.map((x) => x.id)).toEqual([kept.id]);
    // The other company's revoked tablet is untouched by my purge; a second purge finds nothing.
    expect((await h.get(`/api/tablets/${theirs.id}`, them.cookie)).status).toBe(200);
    expect(await (await h.send('POST', '/api/tablets/purge', me.cookie)).json()).toEqual({
      purgedTabletCount: 0,
    });
    // Not for managers.
    const manager = await aUser(h.t.db, me.company, { role: 'manager' });
    const managerCookie = await h.login(manager.email, manager.password);
    expect((await h.send('POST', '/api/tablets/purge', managerCookie)).status).toBe(403);
  });

  it("answers an unreachable tablet's restart with live-operations §8 text, naming it by serial", async () => {
    const me = await h.tenant();
    const tab = await aTablet(me.company, null, 'SN-far');
    const res = await h.send('POST', `/api/tablets/${tab.id}/restart`, me.cookie);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({
      code: 'TABLET_UNREACHABLE',
      message: 'Unable to restart application on tablet SN-far',
    });
  });

  it('holds a bound tablet to its machine, over HTTP and in the sync engine', async () => {
    const me = await h.tenant();
    const a = await aMachine(h.t.db, me.company, { name: 'A' });
    const b = await aMachine(h.t.db, me.company, { name: 'B' });
    for (const m of [a, b]) await madeParts(h.t.db, me.company, m, h.clock.now - 60_000);
    const reason = await aRejectReason(h.t.db, me.company, { reject_behavior: 'scrap' });
    const tab = await aTablet(me.company, a);
    const reject = (machineId: string) =>
      h.send('POST', '/api/partadjustment', tab.cookie, {
        scrap: true,
        adjustmenttime: h.clock.now,
        machine_id: machineId,
        category_id: reason.id,
        scrapcount: 1,
      });

    const elsewhere = await reject(b);
    expect(elsewhere.status).toBe(403);
    expect(await errorOf(elsewhere)).toEqual({ code: 'TABLET_BOUND', message: BOUND_ELSEWHERE });
    expect((await reject(a)).status).toBe(201);

    // Path and query parameters count too; other ids and unbound callers are untouched.
    expect((await h.get(`/api/workcenter/${b}`, tab.cookie)).status).toBe(403);
    expect((await h.get(`/api/partadjustment?machineId=${b}`, tab.cookie)).status).toBe(403);
    expect((await h.get(`/api/partadjustment?machineId=${a}`, tab.cookie)).status).not.toBe(403);
    const dispatch = await h.send('POST', '/api/dispatch/start', tab.cookie, {
      id: b,
      jobId: 'x',
      setup: false,
    });
    expect(dispatch.status).toBe(403);
    expect(
      (
        await h.send('POST', '/api/partadjustment', me.cookie, {
          scrap: true,
          adjustmenttime: h.clock.now,
          machine_id: b,
          category_id: reason.id,
          scrapcount: 1,
        })
      ).status,
    ).toBe(201);

    // The sync engine rejects just the commands for another machine, and remembers the answer.
    const command = (machineId: string) => ({
      id: crypto.randomUUID(),
      type: 'reject_part',
      machineId,
      occurredAt: h.clock.now - 1000,
      payload: { machine_id: machineId, category_id: reason.id, scrapcount: 1, deductFromGoodParts: true },
    });
    const batch = [command(b), command(a)];
    const sync = await h.send('POST', '/api/sync', tab.cookie, { commands: batch });
    expect(sync.status).toBe(200);
    const { results } = (await sync.json()) as { results: SyncOutcome[] };
    expect(results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'TABLET_BOUND', message: BOUND_ELSEWHERE },
    });
    expect(results[1]).toMatchObject({ status: 'applied' });
    const repeat = (await (await h.send('POST', '/api/sync', tab.cookie, { commands: batch })).json()) as {
      results: SyncOutcome[];
    };
    expect(repeat.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);

    // An unbound tablet may act on any machine of its company.
    const free = await aTablet(me.company, null, 'SN-free');
    const anywhere = await h.send('POST', '/api/sync', free.cookie, { commands: [command(b)] });
    expect(((await anywhere.json()) as { results: SyncOutcome[] }).results[0]).toMatchObject({
      status: 'applied',
    });
  });
});
