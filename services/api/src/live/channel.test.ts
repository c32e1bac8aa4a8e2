import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DialectName } from '@takt/db';
import { companyScope } from '@takt/db';
import { revokeTablet, updateTablet } from '../repositories/tablets';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Node } from '../testing/ws';
import { login, openSocket, startNode, stopAll } from '../testing/ws';
import { aTablet } from '../testing/tablet-builders';
import { aJobRun } from '../testing/downtime-builders';
import { inProcessBus, postgresBus } from './bus';
import { REVALIDATE_MS } from './session';

const connect = (node: Node, cookie?: string) => openSocket(node, '/live', cookie);

/** startNode with a clock the test can move forward (`clock.skew`), to pass the re-check interval at once. */
function startClockedNode(t: TestDb, dialect: DialectName, clock: { skew: number }): Promise<Node> {
  return startNode(t, dialect, inProcessBus(), () => Date.now() + clock.skew);
}

const closedWith = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve(-1);
    else ws.once('close', (code) => resolve(code));
  });

describe.each(DIALECTS)('live channel on %s', (dialect) => {
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

  it('answers a caller without a session with NOT_AUTHENTICATED', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const c = await connect(node);
    sockets.push(c.ws);
    const err = await c.next((m) => m.event === 'error', 'an error');
    expect(err.code).toBe('NOT_AUTHENTICATED');
  });

  it("joins a machine's live channel, gets updates, and never another company's machine", async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const other = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const mine = await aMachine(t.db, company, { name: 'Mill' });
    const theirs = await aMachine(t.db, other, { name: 'Secret' });
    const c = await connect(node, await login(node, user.email, user.password));
    sockets.push(c.ws);

    c.send({ event: 'join', machine_id: theirs, name: 'live' });
    const denied = await c.next((m) => m.event === 'error', 'a refusal');
    expect(denied).toMatchObject({ code: 'NOT_FOUND', machine_id: theirs });

    c.send({ event: 'join', machine_id: mine, name: 'live' });
    const joined = await c.next((m) => m.event === 'join', 'the join');
    expect(joined.payload).toMatchObject({ id: mine, name: 'Mill', status: 'UNAVAILABLE' });

    const at = Date.now();
    await t.db
      .insertInto('machine_live')
      .values({
        machine_id: mine,
        company_id: company.id,
        state: 'ACTIVE',
        state_since: at,
        connection: 'CONNECTED',
        connection_since: at,
        last_heartbeat: at,
        execution: 'ACTIVE',
        execution_since: at,
        availability: 'AVAILABLE',
        controller_mode: null,
        program: 'O42',
        part_count: 3,
        spindle_speed: null,
        fault_since: null,
        fault_message: null,
        in_setup: 0,
        updated_at: at,
      })
      .execute();
    // Another company's event for the same id is not delivered; ours is.
    await node.bus.publish([{ companyId: other.id, machineId: mine, topic: 'live' }]);
    await node.bus.publish([{ companyId: company.id, machineId: mine, topic: 'live' }]);
    const update = await c.next((m) => m.event === 'channel_update', 'an update');
    expect(update.payload).toMatchObject({ id: mine, status: 'ACTIVE', program: 'O42' });
    expect(c.messages.filter((m) => m.event === 'channel_update')).toHaveLength(1);

    c.send({ event: 'leave', machine_id: mine, name: 'live' });
    await c.next((m) => m.event === 'leave', 'the leave');
  });

  it('joins temp_timeline (config start, end, key) and diagnostics (stream raw), and updates both', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const machine = await aMachine(t.db, company);
    const c = await connect(node, await login(node, user.email, user.password));
    sockets.push(c.ws);
    const end = Date.now();
    const config = { start: end - 3_600_000, end, key: 'timeline-1' };
    c.send({ event: 'join', machine_id: machine, name: 'temp_timeline', config });
    const timeline = await c.next((m) => m.event === 'join' && m.name === 'temp_timeline', 'the timeline');
    expect(timeline.payload).toMatchObject({ key: 'timeline-1' });
    c.send({ event: 'join', machine_id: machine, name: 'diagnostics', config: { stream: 'raw' } });
    const raw = await c.next((m) => m.event === 'join' && m.name === 'diagnostics', 'the diagnostics');
    expect(raw.payload).toMatchObject({ observations: expect.any(Array) });

    await node.bus.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
    for (const name of ['temp_timeline', 'diagnostics']) {
      await c.next((m) => m.event === 'channel_update' && m.name === name, `an update of ${name}`);
    }
  });

  it("temp_timeline with a key sends that key's samples in the window, and new ones on update", async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const machine = await aMachine(t.db, company);
    const at = Date.now();
    const observe = (rows: Array<[number, string, string | null]>) =>
      t.db
        .insertInto('observations')
        .values(
          rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machine, ts, key, value })),
        )
        .execute();
    await observe([
      [at - 7_200_000, 'Xload', '99'], // before the window
      [at - 120_000, 'Xload', '12.5'],
      [at - 60_000, 'Xload', null],
      [at - 60_000, 'Sspeed', '1200'], // another key
    ]);
    const c = await connect(node, await login(node, user.email, user.password));
    sockets.push(c.ws);
    const config = { start: at - 3_600_000, end: at + 3_600_000, key: 'Xload' };
    c.send({ event: 'join', machine_id: machine, name: 'temp_timeline', config });
    const joined = await c.next((m) => m.event === 'join' && m.name === 'temp_timeline', 'the join');
    expect(joined.payload).toMatchObject({
      key: 'Xload',
      samples: [
        { ts: at - 120_000, value: '12.5' },
        { ts: at - 60_000, value: null },
      ],
    });

    await observe([[at - 1_000, 'Xload', '14']]);
    await node.bus.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
    const update = await c.next((m) => m.event === 'channel_update', 'an update');
    expect((update.payload as { samples: unknown[] }).samples).toEqual([
      { ts: at - 120_000, value: '12.5' },
      { ts: at - 60_000, value: null },
      { ts: at - 1_000, value: '14' },
    ]);
  });

  it('sends the same tile as GET /api/dashboard: the running job stays on it; the goal only with FullProduct', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    for (const tier of ['full', 'serviceProvider'] as const) {
      const company = await aCompany(t.db, { productTier: tier });
      const user = await aUser(t.db, company);
      const machine = await aMachine(t.db, company, { name: `Lathe ${tier}` });
      await aJobRun(t.db, company, machine, { start: Date.now() - 30 * 60_000, jobName: 'Flange' });
      const cookie = await login(node, user.email, user.password);
      const c = await connect(node, cookie);
      sockets.push(c.ws);
      c.send({ event: 'join', machine_id: machine, name: 'live' });
      const joined = await c.next((m) => m.event === 'join', 'the join');
      const tiles = (await (
        await fetch(`http://${node.url}/api/dashboard`, { headers: { cookie } })
      ).json()) as { machines: Array<Record<string, unknown>> };
      const polled = tiles.machines.find((m) => m.id === machine)!;
      const tile = joined.payload as Record<string, unknown>;
      expect(tile).toMatchObject({
        id: machine,
        scheduled: true,
        jobScheduleGroupId: polled.jobScheduleGroupId,
        jobId: polled.jobId,
        workcenterType: 'machine',
      });
      expect(tile.jobScheduleGroupId).toEqual(expect.any(String));
      // The goal: a number with FullProduct (30 minutes at 60 s a part), blank without (live-operations §6).
      if (tier === 'full') expect(tile.expectedParts).toEqual(expect.any(Number));
      else expect(tile).toMatchObject({ expectedParts: null, progress: null, pausedJobName: null });
      expect(tile.expectedParts).toEqual(polled.expectedParts);
      expect(tile.progress).toEqual(polled.progress);
    }
  });

  it('holds a bound tablet to its own machine', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const own = await aMachine(t.db, company);
    const other = await aMachine(t.db, company);
    const tablet = await aTablet(t.db, company, own, Date.now());
    const c = await connect(node, tablet.cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: other, name: 'live' });
    expect(await c.next((m) => m.event === 'error', 'a refusal')).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This tablet is bound to another machine.',
      machine_id: other,
    });
    c.send({ event: 'join', machine_id: own, name: 'live' });
    expect(await c.next((m) => m.event === 'join', 'the join')).toMatchObject({ machine_id: own });
  });

  it('reinit: the server tells subscribers to reload; a client asks for the whole state again', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const other = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const machine = await aMachine(t.db, company, { name: 'Mill' });
    const quiet = await aMachine(t.db, company, { name: 'Quiet' });
    const c = await connect(node, await login(node, user.email, user.password));
    sockets.push(c.ws);

    // Asking before joining is refused; the socket stays usable.
    c.send({ event: 'reinit', machine_id: machine, name: 'live' });
    expect(await c.next((m) => m.event === 'error', 'a refusal')).toMatchObject({
      code: 'NOT_JOINED',
      machine_id: machine,
      name: 'live',
    });

    c.send({ event: 'join', machine_id: machine, name: 'live' });
    await c.next((m) => m.event === 'join' && m.name === 'live', 'the live join');
    c.send({ event: 'join', machine_id: machine, name: 'diagnostics', config: { stream: 'raw' } });
    await c.next((m) => m.event === 'join' && m.name === 'diagnostics', 'the diagnostics join');
    c.send({ event: 'join', machine_id: quiet, name: 'live' });
    await c.next((m) => m.event === 'join' && m.machine_id === quiet, 'the join of the quiet machine');

    // Server → client: a reinit event reaches every channel of that machine at once, without a payload,
    // and nothing of another company or another machine.
    await node.bus.publish([{ companyId: other.id, machineId: machine, topic: 'reinit' }]);
    // An update is pending (debounced) when the reinit comes: the reinit replaces it.
    await node.bus.publish([
      { companyId: company.id, machineId: machine, topic: 'live' },
      { companyId: company.id, machineId: machine, topic: 'reinit' },
    ]);
    await expect.poll(() => c.messages.filter((m) => m.event === 'reinit').length).toBe(2);
    const told = c.messages.filter((m) => m.event === 'reinit');
    expect(told.map((m) => m.name).sort()).toEqual(['diagnostics', 'live']);
    for (const m of told) expect(m).toEqual({ event: 'reinit', machine_id: machine, name: m.name });
    // No channel_update follows the reinit.
    await new Promise((r) => setTimeout(r, 400));
    expect(c.messages.filter((m) => m.event === 'channel_update')).toEqual([]);

    // Client → server: the whole state again, as at join. Diagnostics resends its last 10 minutes.
    const at = Date.now();
    await t.db
      .insertInto('observations')
      .values({ company_id: company.id, machine_id: machine, ts: at - 60_000, key: 'Xact', value: '12.5' })
      .execute();
    c.send({ event: 'reinit', machine_id: machine, name: 'diagnostics' });
    const raw = await c.next((m) => m.event === 'reinit' && 'payload' in m, 'the diagnostics state');
    expect(raw).toMatchObject({
      machine_id: machine,
      name: 'diagnostics',
      payload: { observations: [expect.objectContaining({ key: 'Xact', value: '12.5' })] },
    });
    c.send({ event: 'reinit', machine_id: machine, name: 'diagnostics' });
    await expect
      .poll(() =>
        c.messages.filter((m) => m.event === 'reinit' && m.name === 'diagnostics' && 'payload' in m),
      )
      .toHaveLength(2);
    const again = c.messages.filter(
      (m) => m.event === 'reinit' && m.name === 'diagnostics' && 'payload' in m,
    );
    expect(again[1]).toEqual(again[0]);
    c.send({ event: 'reinit', machine_id: machine, name: 'live' });
    const tile = await c.next((m) => m.event === 'reinit' && m.name === 'live' && 'payload' in m, 'the tile');
    expect(tile.payload).toMatchObject({ id: machine, name: 'Mill', workcenterType: 'machine' });
  });

  it('tells every subscriber of the company to reinit when the start of day changes', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const admin = await aUser(t.db, company, { role: 'admin' });
    const machine = await aMachine(t.db, company);
    const cookie = await login(node, admin.email, admin.password);
    const c = await connect(node, cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: machine, name: 'temp_timeline' });
    await c.next((m) => m.event === 'join', 'the join');
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`http://${node.url}/api/timecontext`, {
      method: 'PUT',
      headers: { cookie, origin: `http://${node.url}`, 'content-type': 'application/json' },
      body: JSON.stringify({ offset_millis: 3_600_000, effectivedate: tomorrow }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await c.next((m) => m.event === 'reinit', 'the reinit')).toEqual({
      event: 'reinit',
      machine_id: machine,
      name: 'temp_timeline',
    });
  });

  it('refuses a CSV-link token: it is not a session', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const cookie = await login(node, user.email, user.password);
    const res = await fetch(`http://${node.url}/api/user-token`, { headers: { cookie } });
    const { token } = (await res.json()) as { token: string };
    const c = await connect(node, `takt_session=${token}`);
    sockets.push(c.ws);
    const closed = closedWith(c.ws);
    expect(await c.next((m) => m.event === 'error', 'an error')).toMatchObject({ code: 'NOT_AUTHENTICATED' });
    expect(await closed).toBe(4001);
  });

  it('closes the socket of a logged-out session before the next update', async () => {
    const clock = { skew: 0 };
    const node = await startClockedNode(t, dialect, clock);
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const machine = await aMachine(t.db, company);
    const cookie = await login(node, user.email, user.password);
    const c = await connect(node, cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: machine, name: 'live' });
    await c.next((m) => m.event === 'join', 'the join');
    await node.bus.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
    await c.next((m) => m.event === 'channel_update', 'an update while logged in');

    const out = await fetch(`http://${node.url}/logout`, {
      method: 'DELETE',
      headers: { cookie, origin: `http://${node.url}` },
    });
    expect(out.status).toBe(204);
    clock.skew += REVALIDATE_MS + 1;
    const closed = closedWith(c.ws);
    await node.bus.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
    expect(await c.next((m) => m.event === 'error', 'the refusal')).toMatchObject({
      code: 'NOT_AUTHENTICATED',
    });
    expect(await closed).toBe(4001);
    expect(c.messages.filter((m) => m.event === 'channel_update')).toHaveLength(1);
  });

  it('refuses the next join of a revoked tablet and closes its socket', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const machine = await aMachine(t.db, company);
    const tablet = await aTablet(t.db, company, null, Date.now());
    const c = await connect(node, tablet.cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: machine, name: 'live' });
    await c.next((m) => m.event === 'join', 'the join');

    expect(await revokeTablet(companyScope(t.db, company.id), tablet.id)).toBe(true);
    const closed = closedWith(c.ws);
    c.send({ event: 'join', machine_id: machine, name: 'diagnostics' });
    expect(await c.next((m) => m.event === 'error', 'the refusal')).toMatchObject({
      code: 'NOT_AUTHENTICATED',
    });
    expect(await closed).toBe(4001);
    expect(c.messages.filter((m) => m.event === 'join')).toHaveLength(1);
  });

  it('stops updates to a revoked tablet once the check is due', async () => {
    const clock = { skew: 0 };
    const node = await startClockedNode(t, dialect, clock);
    nodes.push(node);
    const company = await aCompany(t.db);
    const machine = await aMachine(t.db, company);
    const tablet = await aTablet(t.db, company, machine, Date.now());
    const c = await connect(node, tablet.cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: machine, name: 'live' });
    await c.next((m) => m.event === 'join', 'the join');

    await revokeTablet(companyScope(t.db, company.id), tablet.id);
    clock.skew += REVALIDATE_MS + 1;
    const closed = closedWith(c.ws);
    await node.bus.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
    expect(await c.next((m) => m.event === 'error', 'the refusal')).toMatchObject({
      code: 'NOT_AUTHENTICATED',
    });
    expect(await closed).toBe(4001);
    expect(c.messages.filter((m) => m.event === 'channel_update')).toEqual([]);
  });

  it('follows a re-bound tablet to its new machine', async () => {
    const clock = { skew: 0 };
    const node = await startClockedNode(t, dialect, clock);
    nodes.push(node);
    const company = await aCompany(t.db);
    const old = await aMachine(t.db, company);
    const next = await aMachine(t.db, company);
    const tablet = await aTablet(t.db, company, old, Date.now());
    const c = await connect(node, tablet.cookie);
    sockets.push(c.ws);
    c.send({ event: 'join', machine_id: old, name: 'live' });
    await c.next((m) => m.event === 'join', 'the join');

    // PUT /api/tablets/:id binds it to another machine.
    await updateTablet(companyScope(t.db, company.id), tablet.id, { machine_id: next });
    clock.skew += REVALIDATE_MS + 1;
    await node.bus.publish([{ companyId: company.id, machineId: old, topic: 'live' }]);
    expect(await c.next((m) => m.event === 'error', 'the dropped subscription')).toEqual({
      event: 'error',
      code: 'FORBIDDEN',
      message: 'This tablet is bound to another machine.',
      machine_id: old,
      name: 'live',
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(c.messages.filter((m) => m.event === 'channel_update')).toEqual([]);

    c.send({ event: 'join', machine_id: old, name: 'diagnostics' });
    await expect.poll(() => c.messages.filter((m) => m.code === 'FORBIDDEN').length).toBe(2);
    c.send({ event: 'join', machine_id: next, name: 'live' });
    expect(await c.next((m) => m.event === 'join' && m.machine_id === next, 'the new join')).toMatchObject({
      name: 'live',
    });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses temp_timeline windows the HTTP timeline call refuses, with the same texts', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const machine = await aMachine(t.db, company);
    const cookie = await login(node, user.email, user.password);
    const c = await connect(node, cookie);
    sockets.push(c.ws);
    const end = Date.now();
    const day = 86_400_000;
    const cases = [
      { config: { start: end, end: end - 3_600_000 }, message: 'Start Date must be before End Date' },
      { config: { start: end, end }, message: 'Start Date must be before End Date' },
      { config: { start: end - 8 * day, end }, message: 'Select up to 7 days' },
      { config: { start: end - 3 * 365 * day, end }, message: 'Select up to 7 days' },
    ];
    for (const [i, { config, message }] of cases.entries()) {
      c.send({
        event: 'join',
        machine_id: machine,
        name: 'temp_timeline',
        config: { ...config, key: `k${i}` },
      });
      await expect.poll(() => c.messages.filter((m) => m.event === 'error').length, { message }).toBe(i + 1);
      const refusal = c.messages.filter((m) => m.event === 'error')[i]!;
      expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', message, machine_id: machine });
      const http = await fetch(
        `http://${node.url}/api/reports/operation?machineId=${machine}&start=${config.start}&end=${config.end}`,
        { headers: { cookie } },
      );
      expect(http.status).toBe(400);
      const body = (await http.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: refusal.code, message: refusal.message });
    }
    expect(c.messages.filter((m) => m.event === 'join')).toEqual([]);
    // 7 days is allowed.
    c.send({
      event: 'join',
      machine_id: machine,
      name: 'temp_timeline',
      config: { start: end - 7 * day, end },
    });
    await c.next((m) => m.event === 'join', 'the 7-day join');
  });

  it('refuses malformed messages with a clear error and stays open', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const c = await connect(node, await login(node, user.email, user.password));
    sockets.push(c.ws);
    c.ws.send('not json');
    c.send({ event: 'join', name: 'nonsense' });
    await expect
      .poll(() => c.messages.filter((m) => m.code === 'BAD_REQUEST').length, { timeout: 5000 })
      .toBe(2);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('live channel across API processes on one PostgreSQL', () => {
  it('delivers a change published by one process to a subscriber of another', async () => {
    const t = await freshDb('postgres');
    const [busA, busB] = await Promise.all([postgresBus(t.url), postgresBus(t.url)]);
    const a = await startNode(t, 'postgres', busA);
    const b = await startNode(t, 'postgres', busB);
    try {
      const company = await aCompany(t.db);
      const user = await aUser(t.db, company);
      const machine = await aMachine(t.db, company, { name: 'Lathe' });
      const c = await connect(b, await login(a, user.email, user.password));
      c.send({ event: 'join', machine_id: machine, name: 'live' });
      await c.next((m) => m.event === 'join', 'the join on B');
      await busA.publish([{ companyId: company.id, machineId: machine, topic: 'live' }]);
      const update = await c.next((m) => m.event === 'channel_update', 'the update from A');
      expect(update).toMatchObject({ machine_id: machine, name: 'live', topic: 'live' });
      c.ws.terminate();
    } finally {
      for (const n of [a, b]) {
        await new Promise((r) => n.server.close(r));
        await n.bus.close();
      }
      await t.cleanup();
    }
  });
});
