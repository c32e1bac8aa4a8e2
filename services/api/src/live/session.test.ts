import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Company } from '../repositories/company';
import { aCompany, aMachine } from '../testing/builders';
import type { Access, CallerLookup } from './session';
import { LiveSession, REVALIDATE_MS } from './session';

// The session's re-check rules (decision 0502) without a server: a fake socket, a lookup the test answers and
// a clock it moves. What a client sees through a real socket is in channel.test.ts.

/** A socket that records what is sent and how it was closed. */
function fakeSocket() {
  const socket = {
    readyState: 1,
    sent: [] as Array<Record<string, unknown>>,
    closedWith: null as number | null,
    send(data: string) {
      socket.sent.push(JSON.parse(data) as Record<string, unknown>);
    },
    close(code?: number) {
      socket.readyState = 3;
      socket.closedWith = code ?? null;
    },
  };
  return socket;
}

/** A session of a user of `company`; `answers` are the lookups' next verdicts, then the caller as it was. */
function aSession(t: TestDb, company: Company) {
  const clock = { now: Date.now() };
  const access: Access = {
    scope: companyScope(t.db, company.id),
    timezone: company.timezone,
    fullProduct: true,
    boundMachineId: null,
  };
  const answers: Array<Access | null | 'error'> = [];
  let lookups = 0;
  const lookup: CallerLookup = async () => {
    lookups += 1;
    return answers.length ? answers.shift()! : access;
  };
  const socket = fakeSocket();
  const session = new LiveSession(socket, { lookup, first: lookup(), now: () => clock.now });
  return { session, socket, clock, answers, access, lookups: () => lookups };
}

describe.each(DIALECTS)('live session on %s', (dialect) => {
  let t: TestDb;
  let company: Company;
  const sessions: LiveSession[] = [];

  beforeEach(async () => {
    t = await freshDb(dialect);
    company = await aCompany(t.db);
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) s.close();
    await t.cleanup();
  });

  it('trusts a verdict for REVALIDATE_MS and shares one lookup among concurrent checks', async () => {
    const { session, clock, lookups } = aSession(t, company);
    sessions.push(session);
    expect(await session.open()).toBe(true);
    expect(await session.recheck()).toBe(true);
    expect(lookups()).toBe(1);

    clock.now += REVALIDATE_MS;
    const verdicts = await Promise.all([session.recheck(), session.recheck(), session.recheck(true)]);
    expect(verdicts).toEqual([true, true, true]);
    expect(lookups()).toBe(2);
  });

  it('keeps the last verdict when the database fails, and asks again at the next check', async () => {
    const { session, socket, clock, answers, lookups } = aSession(t, company);
    sessions.push(session);
    await session.open();
    let tornDown = 0;
    session.whenClosed(() => (tornDown += 1));

    clock.now += REVALIDATE_MS;
    answers.push('error');
    expect(await session.recheck()).toBe(true);
    expect(socket.closedWith).toBeNull();

    // The failed lookup recorded no verdict, so the check is still due without moving the clock.
    answers.push(null);
    expect(await session.recheck()).toBe(false);
    expect(lookups()).toBe(3);
    expect(socket.sent).toEqual([
      { event: 'error', code: 'NOT_AUTHENTICATED', message: 'You are not logged in.' },
    ]);
    expect(socket.closedWith).toBe(4001);
    expect(tornDown).toBe(1);
  });

  it('refuses a caller that now belongs to another company', async () => {
    const { session, socket, answers, access } = aSession(t, company);
    sessions.push(session);
    await session.open();
    const other = await aCompany(t.db);
    answers.push({ ...access, scope: companyScope(t.db, other.id) });
    expect(await session.recheck(true)).toBe(false);
    expect(socket.sent).toMatchObject([{ event: 'error', code: 'NOT_AUTHENTICATED' }]);
    expect(socket.closedWith).toBe(4001);
  });

  it('sends nothing pending once closed, runs the teardown once, and refuses later messages', async () => {
    const { session, socket } = aSession(t, company);
    sessions.push(session);
    await session.open();
    const machine = await aMachine(t.db, company);
    await session.receive(JSON.stringify({ event: 'join', machine_id: machine, name: 'live' }));
    expect(socket.sent).toMatchObject([{ event: 'join', machine_id: machine, name: 'live' }]);
    let tornDown = 0;
    session.whenClosed(() => (tornDown += 1));

    session.onPublish({ companyId: company.id, machineId: machine, topic: 'live' });
    session.close();
    session.close();
    await new Promise((r) => setTimeout(r, 400)); // past the update's debounce
    expect(socket.sent).toHaveLength(1);
    expect(tornDown).toBe(1);
    session.whenClosed(() => (tornDown += 1));
    expect(tornDown).toBe(2);

    await session.receive(JSON.stringify({ event: 'join', machine_id: machine, name: 'live' }));
    expect(socket.sent.at(-1)).toMatchObject({ event: 'error', code: 'NOT_AUTHENTICATED' });
  });

  it('lets a TV (board device, decision 1041) join the live tiles only', async () => {
    const { session, socket, answers, access } = aSession(t, company);
    sessions.push(session);
    answers.push(
      { ...access, boardOnly: true },
      { ...access, boardOnly: true },
      { ...access, boardOnly: true },
    );
    await session.open();
    const machine = await aMachine(t.db, company);
    await session.receive(JSON.stringify({ event: 'join', machine_id: machine, name: 'diagnostics' }));
    expect(socket.sent.at(-1)).toMatchObject({ event: 'error', code: 'FORBIDDEN', name: 'diagnostics' });
    await session.receive(JSON.stringify({ event: 'join', machine_id: machine, name: 'live' }));
    expect(socket.sent.at(-1)).toMatchObject({ event: 'join', machine_id: machine, name: 'live' });
  });
});
