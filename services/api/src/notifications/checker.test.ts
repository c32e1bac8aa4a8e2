import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { smtpTransport } from '../mail/transport';
import type { Company } from '../repositories/company';
import type { User } from '../repositories/users';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine, aUser } from '../testing/builders';
import { HOUR, MIN, someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';
import { listOutboxMail } from '../testing/mail-outbox';
import { startSmtpServer } from '../testing/smtp-server';
import type { TestSmtpServer } from '../testing/smtp-server';
import { runNotificationChecks } from './checker';

// Machine downtime and utilization notifications end to end (reports-admin §1, §3 Machine notification;
// decisions 0901, 0902): set through the machines admin call, checked by the worker's round, delivered by
// SMTP to a real SMTP server (decision 0903).

const START = 1_763_800_000_000;

describe.each(DIALECTS)('machine notifications by e-mail on %s', (dialect) => {
  let h: ApiHarness;
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startSmtpServer();
    h = await apiHarness(dialect, START, { mail: smtpTransport(smtp.url, 'Takt <takt@test.example>') });
  });
  afterEach(async () => {
    await h.close();
    await smtp.close();
  });

  const round = () =>
    runNotificationChecks({
      db: h.t.db,
      now: () => h.clock.now,
      mail: smtpTransport(smtp.url, 'Takt <takt@test.example>'),
    });
  /** Let `minutes` pass with every link alive (ingest keeps the heartbeat fresh), then run one round. */
  const after = async (minutes: number) => {
    h.clock.now += minutes * MIN;
    await h.t.db.updateTable('machine_live').set({ last_heartbeat: h.clock.now }).execute();
    return round();
  };

  /** The machine's live row as ingest keeps it: `state` since `since`, heartbeat fresh at the clock. */
  const live = async (company: Company, machineId: string, state: string, since: number) => {
    const values = {
      state,
      state_since: since,
      connection: 'CONNECTED',
      connection_since: START - HOUR,
      last_heartbeat: h.clock.now,
      execution: state === 'ACTIVE' ? 'ACTIVE' : 'READY',
      execution_since: since,
      availability: 'AVAILABLE',
      controller_mode: 'AUTOMATIC',
      program: null,
      part_count: null,
      spindle_speed: null,
      fault_since: null,
      fault_message: null,
      in_setup: 0,
      updated_at: h.clock.now,
    };
    await h.t.db
      .insertInto('machine_live')
      .values({ machine_id: machineId, company_id: company.id, ...values })
      .onConflict((oc) => oc.columns(['machine_id', 'company_id']).doUpdateSet(values))
      .execute();
  };

  const notify = async (
    cookie: string,
    machineId: string,
    notifications: Array<{
      accountId: string;
      type: 'downtime' | 'utilization';
      level: number;
      delayMinutes?: number;
    }>,
  ) => {
    const res = await h.send('PUT', `/api/machines/${machineId}/notifications`, cookie, { notifications });
    expect(res.status).toBe(200);
  };

  const mailTo = (user: User) => smtp.received.filter((m) => m.to.includes(user.email));

  it('mails a downtime once per episode, only after its delay', async () => {
    const { company, user, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company, { name: 'Lathe 4' });
    await live(company, machine, 'ACTIVE', START - HOUR);
    await notify(cookie, machine, [{ accountId: user.id, type: 'downtime', level: 1 }]);

    expect(await round()).toBe(0);
    const downAt = h.clock.now;
    await live(company, machine, 'INACTIVE', downAt);
    expect(await after(9)).toBe(0);
    expect(smtp.received).toEqual([]);
    // The default delay is 10 minutes (reports-admin §3).
    expect(await after(1)).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'takt@test.example', to: [user.email] });
    expect(smtp.received[0]?.subject).toBe('Warning: Lathe 4 has been down for 10 minutes');
    // Still down, later and in another down state: the same episode, no second e-mail.
    await live(company, machine, 'FAULT', h.clock.now);
    expect(await after(30)).toBe(0);
    expect(smtp.received).toHaveLength(1);

    // Running again ends the episode; the next downtime is a new one with its own e-mail.
    await live(company, machine, 'ACTIVE', h.clock.now);
    expect(await after(1)).toBe(0);
    await live(company, machine, 'INACTIVE', h.clock.now);
    expect(await after(5)).toBe(0);
    expect(await after(5)).toBe(1);
    expect(mailTo(user)).toHaveLength(2);
    const rows = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(rows.map((r) => [r.transport, r.status])).toEqual([
      ['smtp', 'sent'],
      ['smtp', 'sent'],
    ]);
  });

  it('counts a Failure downtime from the moment the tile turns danger', async () => {
    const { company, user, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    await companyScope(h.t.db, company.id)
      .updateTable('machines')
      .set({ downtime_failure_delay: 15 })
      .where('id', '=', machine)
      .execute();
    await notify(cookie, machine, [{ accountId: user.id, type: 'downtime', level: 2, delayMinutes: 5 }]);
    const downAt = h.clock.now;
    await live(company, machine, 'INACTIVE', downAt);
    expect(await after(10)).toBe(0);
    expect(await after(9)).toBe(0);
    expect(await after(1)).toBe(1);
    expect(smtp.received[0]?.subject).toMatch(/^Failure: .* has been down for 20 minutes$/);
  });

  it('starts a new episode when the machine ran between two checks', async () => {
    const { company, user, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    await notify(cookie, machine, [{ accountId: user.id, type: 'downtime', level: 1, delayMinutes: 0 }]);
    const first = h.clock.now - MIN;
    await live(company, machine, 'INACTIVE', first);
    expect(await round()).toBe(1);
    // Between this check and the next the machine ran for a while and stopped again.
    await someStates(h.t.db, company, machine, [
      [first, h.clock.now + MIN, 'INACTIVE'],
      [h.clock.now + MIN, h.clock.now + 2 * MIN, 'ACTIVE'],
      [h.clock.now + 2 * MIN, null, 'INACTIVE'],
    ]);
    await live(company, machine, 'INACTIVE', h.clock.now + 2 * MIN);
    expect(await after(3)).toBe(1);
    expect(mailTo(user)).toHaveLength(2);
  });

  it('mails low utilization after its delay, a Failure only below the failure percent', async () => {
    const { company, user, cookie } = await h.tenant();
    const colleague = await aUser(h.t.db, company, { role: 'manager' });
    // Warning below 50 %, Failure below 0 % (never): a machine at 0 % is in warning only.
    await companyScope(h.t.db, company.id)
      .db.updateTable('companies')
      .set({ utilization_warningpercent: 50, utilization_failurepercent: 0 })
      .where('id', '=', company.id)
      .execute();
    const machine = await aMachine(h.t.db, company, { name: 'Mill 2' });
    await someStates(h.t.db, company, machine, [[START - 24 * HOUR, null, 'INACTIVE']]);
    await live(company, machine, 'INACTIVE', START - 24 * HOUR);
    await notify(cookie, machine, [
      { accountId: user.id, type: 'utilization', level: 1, delayMinutes: 10 },
      { accountId: colleague.id, type: 'utilization', level: 2, delayMinutes: 10 },
    ]);
    expect(await round()).toBe(0);
    expect(await after(5)).toBe(0);
    expect(await after(5)).toBe(1);
    expect(mailTo(user)).toHaveLength(1);
    expect(mailTo(user)[0]?.subject).toBe('Warning: Mill 2 utilization is low (0%)');
    expect(mailTo(colleague)).toEqual([]);
    expect(await after(5)).toBe(0);
  });

  it('never mails about a decommissioned machine, and drops its open episode', async () => {
    const { company, user, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company, { name: 'Old press' });
    await notify(cookie, machine, [{ accountId: user.id, type: 'downtime', level: 1, delayMinutes: 5 }]);
    await live(company, machine, 'INACTIVE', h.clock.now);
    expect(await after(1)).toBe(0);
    const res = await h.send('PUT', `/api/machines/${machine}/decommission`, cookie, { name: 'Old press' });
    expect(res.status).toBe(200);
    await live(company, machine, 'INACTIVE', h.clock.now - MIN);
    expect(await after(30)).toBe(0);
    expect(smtp.received).toEqual([]);
    expect(
      await h.t.db
        .selectFrom('machine_notification_episodes')
        .selectAll()
        .where('machine_id', '=', machine)
        .execute(),
    ).toEqual([]);
  });

  it("keeps a company's machines from another company's recipients", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const myMachine = await aMachine(h.t.db, mine.company, { name: 'Mine' });
    const theirMachine = await aMachine(h.t.db, theirs.company, { name: 'Theirs' });
    // Another company's user cannot be named, and another company's machine is not found.
    const refused = await h.send('PUT', `/api/machines/${myMachine}/notifications`, mine.cookie, {
      notifications: [{ accountId: theirs.user.id, type: 'downtime', level: 1 }],
    });
    expect(refused.status).toBe(400);
    const hidden = await h.send('PUT', `/api/machines/${theirMachine}/notifications`, mine.cookie, {
      notifications: [{ accountId: mine.user.id, type: 'downtime', level: 1 }],
    });
    expect(hidden.status).toBe(404);

    await notify(mine.cookie, myMachine, [
      { accountId: mine.user.id, type: 'downtime', level: 1, delayMinutes: 0 },
    ]);
    await notify(theirs.cookie, theirMachine, [
      { accountId: theirs.user.id, type: 'downtime', level: 1, delayMinutes: 0 },
    ]);
    await live(mine.company, myMachine, 'INACTIVE', h.clock.now);
    expect(await after(1)).toBe(1);
    expect(mailTo(mine.user)).toHaveLength(1);
    expect(mailTo(theirs.user)).toEqual([]);
    expect(await listOutboxMail(companyScope(h.t.db, theirs.company.id))).toEqual([]);
    await live(theirs.company, theirMachine, 'FAULT', h.clock.now);
    expect(await after(1)).toBe(1);
    expect(mailTo(theirs.user).map((m) => m.subject)).toEqual(['Warning: Theirs has been down for 1 minute']);
    expect(mailTo(mine.user)).toHaveLength(1);
  });

  it("mails only episodes that begin in the recipient's chosen shifts", async () => {
    const { company, user: admin, cookie } = await h.tenant();
    // START is 02:26 in the company's zone (America/Chicago): in Night, before Day.
    const night = await aShift(h.t.db, company, {
      name: 'Night',
      startoffsetminutes: 0,
      endoffsetminutes: 360,
    });
    const day = await aShift(h.t.db, company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
    });
    const people = {
      nights: await aUser(h.t.db, company, { role: 'manager' }),
      days: await aUser(h.t.db, company, { role: 'manager' }),
      off: await aUser(h.t.db, company, { role: 'manager' }),
      every: await aUser(h.t.db, company, { role: 'manager' }),
    };
    const choose = async (who: User & { password: string }, notify: boolean, shifts: string[]) => {
      const own = await h.login(who.email, who.password);
      const res = await h.send('PUT', '/api/profile/shift-notifications', own, { notify, shifts });
      expect(res.status).toBe(200);
    };
    await choose(people.nights, true, [night]);
    await choose(people.days, true, [day]);
    await choose(people.off, false, [night, day]);
    await choose(people.every, true, []);
    const machine = await aMachine(h.t.db, company, { name: 'Saw 1' });
    await notify(
      cookie,
      machine,
      [admin, ...Object.values(people)].map((u) => ({
        accountId: u.id,
        type: 'downtime' as const,
        level: 1,
      })),
    );
    const counts = () => [admin, ...Object.values(people)].map((u) => mailTo(u).length);

    // An episode beginning at 02:26 (Night): the admin has saved no choice, so every shift reaches them.
    await live(company, machine, 'INACTIVE', h.clock.now);
    expect(await after(10)).toBe(3);
    expect(counts()).toEqual([1, 1, 0, 0, 1]);

    // Running again, then down at 06:26 (Day): the Day recipient is told, the Night one is not, even though
    // this check runs while Day is under way for both.
    await live(company, machine, 'ACTIVE', h.clock.now);
    expect(await after(230)).toBe(0);
    await live(company, machine, 'INACTIVE', h.clock.now);
    expect(await after(10)).toBe(3);
    expect(counts()).toEqual([2, 1, 1, 0, 2]);
  });

  it('respects the e-mail preferences, and sends nothing more for an episode whose mail failed', async () => {
    const { company, user, cookie } = await h.tenant();
    const optedOut = await aUser(h.t.db, company, { role: 'manager' });
    const optedOutCookie = await h.login(optedOut.email, optedOut.password);
    const prefs = await h.send('PUT', '/api/emailnotifications', optedOutCookie, {
      receiveDowntimeEmail: false,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: true,
    });
    expect(prefs.status).toBe(200);
    const machine = await aMachine(h.t.db, company);
    await notify(cookie, machine, [
      { accountId: user.id, type: 'downtime', level: 1, delayMinutes: 1 },
      { accountId: optedOut.id, type: 'downtime', level: 1, delayMinutes: 1 },
    ]);
    smtp.refuse(true);
    await live(company, machine, 'INACTIVE', h.clock.now);
    expect(await after(1)).toBe(0);
    expect(await after(1)).toBe(0);
    const rows = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to: user.email, transport: 'smtp', status: 'failed' });
    expect(smtp.received).toEqual([]);
  });

  it('sends one e-mail when two processes check at once', async () => {
    const { company, user, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    await notify(cookie, machine, [{ accountId: user.id, type: 'downtime', level: 1, delayMinutes: 0 }]);
    await live(company, machine, 'INACTIVE', h.clock.now - MIN);
    const [a, b] = await Promise.all([round(), round()]);
    expect(a + b).toBe(1);
    expect(mailTo(user)).toHaveLength(1);
  });
});
