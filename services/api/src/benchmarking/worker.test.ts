import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { formatPercent } from '@takt/domain';
import { outboxTransport } from '../mail/transport';
import type { Company } from '../repositories/company';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';
import { listOutboxMail } from '../testing/mail-outbox';
import { aJobWithRun, apiPerTest, recomputeMachines, someCycles } from '../testing/report-plant';
import { runBenchmarkMails } from './worker';

// The weekly benchmarking e-mail (decision 1110) on both dialects: who gets it (users with receiveBenchmarkingEmail
// of companies that take part) and who does not (preference off, locked, excluded company, a company whose
// machines are Undecided or Opt Out), the figures it carries (those of the Utilization report of the week), the
// anonymous peers with their k-anonymity, no other company's or machine's name, and once per user and week.

const HOUR = 3_600_000;
const MIN = 60_000;
/** The compared week in America/Chicago (CST, UTC−6): Monday 2025-11-17 00:00 to Monday 2025-11-24 00:00. */
const WEEK_START = Date.UTC(2025, 10, 17, 6);
const WEEK_END = Date.UTC(2025, 10, 24, 6);
/** Monday 06:00 local is when the e-mail may go: 12:00 UTC. */
const SEND_FROM = WEEK_END + 6 * HOUR;
const NOW = SEND_FROM + 30 * MIN;
const WEEK_HOURS = 168;

describe.each(DIALECTS)('weekly benchmarking e-mails on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function aCompanyNamed(name: string, excluded: 0 | 1 | null = null) {
    const company = await aCompany(api.h.t.db, { name, timezone: 'America/Chicago', productTier: 'full' });
    await api.h.t.db
      .updateTable('companies')
      .set({ exclude_from_benchmarking: excluded })
      .where('id', '=', company.id)
      .execute();
    await aShift(api.h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    return company;
  }

  /** A machine in cycle for `share` of the week (its first hours), idle the rest; opted in unless said. */
  async function aMachineInCycle(company: Company, name: string, share: number, optIn: 0 | 1 | null = 0) {
    const id = await aMachine(api.h.t.db, company, { name });
    await api.h.t.db
      .updateTable('machines')
      .set({ exclude_from_benchmarking: optIn })
      .where('id', '=', id)
      .execute();
    const activeEnd = WEEK_START + Math.round(share * WEEK_HOURS * HOUR);
    await someStates(api.h.t.db, company, id, [
      [WEEK_START, activeEnd, 'ACTIVE'],
      [activeEnd, WEEK_END, 'INACTIVE'],
    ]);
    await recomputeMachines(api.h.t.db, company, [id], { from: WEEK_START, to: WEEK_END, now: NOW });
    return id;
  }

  const run = () => runBenchmarkMails({ db: api.h.t.db, now: () => api.h.clock.now, mail: outboxTransport });
  const mailOf = (company: Company) => listOutboxMail(companyScope(api.h.t.db, company.id));

  async function plant() {
    const alpha = await aCompanyNamed('Alpha Works');
    const alphaAdmin = await aUser(api.h.t.db, alpha, { email: 'ann@alpha.example', role: 'admin' });
    const prefOff = await aUser(api.h.t.db, alpha, { email: 'off@alpha.example', role: 'manager' });
    await companyScope(api.h.t.db, alpha.id)
      .insertInto('email_preferences', {
        user_id: prefOff.id,
        receive_downtime: 1,
        receive_utilization: 1,
        receive_benchmarking: 0,
        updated_at: NOW,
      })
      .execute();
    const locked = await aUser(api.h.t.db, alpha, { email: 'locked@alpha.example' });
    await api.h.t.db.updateTable('users').set({ locked: 1 }).where('id', '=', locked.id).execute();
    const lathe = await aMachineInCycle(alpha, 'Alpha Lathe', 0.25);
    // The lathe ran a job all week, one part per 10-minute cycle while in cycle: it has an OEE.
    const scope = companyScope(api.h.t.db, alpha.id);
    await aJobWithRun(scope, {
      machineId: lathe,
      name: 'Alpha Flange',
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: WEEK_START - HOUR,
      start: WEEK_START,
      end: WEEK_END,
    });
    const inCycleMs = Math.round(0.25 * WEEK_HOURS * HOUR);
    await someCycles(
      scope,
      lathe,
      Array.from({ length: Math.floor(inCycleMs / (10 * MIN)) }, (_, i) => ({
        start: WEEK_START + i * 10 * MIN,
        end: WEEK_START + (i + 1) * 10 * MIN,
      })),
    );
    await recomputeMachines(api.h.t.db, alpha, [lathe], { from: WEEK_START, to: WEEK_END, now: NOW });
    await aMachineInCycle(alpha, 'Alpha Undecided Mill', 0.6, null);
    await aMachineInCycle(alpha, 'Alpha Opted Out Mill', 0.7, 1);

    // Peers: 5 opted-in machines of 3 companies (10 %, 20 %, 30 %, 40 %, 50 %), plus what must not count.
    const bravo = await aCompanyNamed('Bravo Tools', 0);
    await aUser(api.h.t.db, bravo, { email: 'bo@bravo.example' });
    await aMachineInCycle(bravo, 'Bravo Mill 1', 0.1);
    await aMachineInCycle(bravo, 'Bravo Mill 2', 0.2);
    const charlie = await aCompanyNamed('Charlie Parts');
    await aUser(api.h.t.db, charlie, { email: 'cy@charlie.example' });
    await aMachineInCycle(charlie, 'Charlie Press 1', 0.3);
    await aMachineInCycle(charlie, 'Charlie Press 2', 0.4);
    await aMachineInCycle(charlie, 'Charlie Opted Out Press', 0.95, 1);
    const delta = await aCompanyNamed('Delta Cast');
    await aMachineInCycle(delta, 'Delta Caster', 0.5);
    // An excluded company: its users get nothing and its opted-in machine is nobody's peer.
    const echo = await aCompanyNamed('Echo Excluded', 1);
    await aUser(api.h.t.db, echo, { email: 'ed@echo.example' });
    await aMachineInCycle(echo, 'Echo Router', 0.9);
    // A company whose machines are all Undecided takes no part.
    const foxtrot = await aCompanyNamed('Foxtrot Undecided');
    await aUser(api.h.t.db, foxtrot, { email: 'fi@foxtrot.example' });
    await aMachineInCycle(foxtrot, 'Foxtrot Lathe', 0.8, null);
    const companies = { alpha, bravo, charlie, delta, echo, foxtrot };
    const machineNames = {
      alpha: ['Alpha Lathe', 'Alpha Undecided Mill', 'Alpha Opted Out Mill', 'Alpha Flange'],
      bravo: ['Bravo Mill 1', 'Bravo Mill 2'],
      charlie: ['Charlie Press 1', 'Charlie Press 2', 'Charlie Opted Out Press'],
      delta: ['Delta Caster'],
      echo: ['Echo Router'],
      foxtrot: ['Foxtrot Lathe'],
    };
    return { companies, machineNames, alphaAdmin, lathe };
  }

  it('is sent on Monday morning to the users who opted in, with the week’s figures and the peers’ quartiles', async () => {
    const p = await plant();
    const { alpha, bravo, charlie, delta, echo, foxtrot } = p.companies;

    // Before Monday 06:00 local nothing goes.
    api.h.clock.now = SEND_FROM - MIN;
    expect(await run()).toBe(0);
    api.h.clock.now = NOW;
    expect(await run()).toBe(3);

    const alphaMail = await mailOf(alpha);
    expect(alphaMail.map((m) => m.to)).toEqual(['ann@alpha.example']);
    expect((await mailOf(bravo)).map((m) => m.to)).toEqual(['bo@bravo.example']);
    expect((await mailOf(charlie)).map((m) => m.to)).toEqual(['cy@charlie.example']);
    for (const c of [delta, echo, foxtrot]) expect(await mailOf(c)).toEqual([]);

    const mail = alphaMail[0]!;
    expect(mail.subject).toBe('Benchmarking: your machines in the week of Nov 17 – Nov 23, 2025');
    expect(mail.userId).toBe(p.alphaAdmin.id);

    // The figures are the Utilization report's for the machine and the week (interval week).
    const cookie = await api.h.login(p.alphaAdmin.email, p.alphaAdmin.password);
    const res = await api.h.get(
      `/api/reports/utilization?machineId=${p.lathe}&start=${WEEK_START}&end=${WEEK_END}&interval=week`,
      cookie,
    );
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      machines: Array<{ inCycle: number; oee: { oee: number | null } }>;
    };
    const { inCycle, oee } = report.machines[0]!;
    expect(inCycle).toBeCloseTo(0.25, 12);
    expect(oee.oee).not.toBeNull();
    // … and the OEE report's for the machine and the week.
    const oeeRes = await api.h.get(
      `/api/reports/oee?machineId=${p.lathe}&start=${WEEK_START}&end=${WEEK_END}&interval=week`,
      cookie,
    );
    expect(oeeRes.status).toBe(200);
    const oeeReport = (await oeeRes.json()) as { efficiency: { oee: number | null } };
    expect(oeeReport.efficiency.oee).toBeCloseTo(oee.oee!, 12);
    const utilizationLine = `  Alpha Lathe: ${formatPercent(inCycle, 'utilization')}% (second quarter)`;
    const oeeLine = `  Alpha Lathe: ${formatPercent(oee.oee, 'oeeTable')}%`;
    expect(mail.text).toContain(
      [
        'Utilization (in-cycle share of the time)',
        '  Other plants: lower quartile 20%, median 30%, upper quartile 40% (5 machines of 3 companies)',
        utilizationLine,
        '',
        'OEE',
        '  Other plants: not enough peers yet',
        oeeLine,
      ].join('\n'),
    );
    expect(utilizationLine).toBe('  Alpha Lathe: 25% (second quarter)');
    expect(mail.text).toContain('http://localhost:8080/app/email-notifications');

    // Bravo's peers are Alpha's lathe, Charlie's two presses and Delta's caster: 4 machines, not enough.
    const bravoMail = (await mailOf(bravo))[0]!;
    expect(bravoMail.text).toContain(
      '  Other plants: not enough peers yet\n  Bravo Mill 1: 10%\n  Bravo Mill 2: 20%',
    );

    // No e-mail names another company or another company's machine (or job); nor its own machines not opted in.
    const all = Object.entries(p.companies);
    for (const [key, company] of all)
      for (const m of await mailOf(company))
        for (const [otherKey, other] of all) {
          const names = p.machineNames[otherKey as keyof typeof p.machineNames];
          const foreign =
            otherKey === key
              ? names.filter((n) => /Undecided|Opted Out|Flange/.test(n))
              : [other.name, ...names];
          for (const name of foreign)
            expect(m.text + m.subject, `${key}'s mail names ${name}`).not.toContain(name);
        }
  });

  it('goes once per user and week: again, after a restart, or from two processes at once', async () => {
    const p = await plant();
    const [first, second] = await Promise.all([run(), run()]);
    expect(first + second).toBe(3);
    expect(await run()).toBe(0);
    api.h.clock.now = NOW + 2 * 24 * HOUR;
    expect(await run()).toBe(0);
    expect((await mailOf(p.companies.alpha)).length).toBe(1);
    // The next week's goes the next Monday.
    api.h.clock.now = NOW + 7 * 24 * HOUR;
    expect(await run()).toBe(3);
    const weeks = await api.h.t.db
      .selectFrom('benchmark_mails')
      .select(['week'])
      .where('user_id', '=', p.alphaAdmin.id)
      .orderBy('week')
      .execute();
    expect(weeks.map((w) => w.week)).toEqual(['2025-11-17', '2025-11-24']);
  });

  it('stops when the user turns benchmarking e-mails off, the machine opts out or the company is excluded', async () => {
    const p = await plant();
    const { alpha } = p.companies;
    const cookie = await api.h.login(p.alphaAdmin.email, p.alphaAdmin.password);
    const off = await api.h.send('PUT', '/api/emailnotifications', cookie, {
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: false,
    });
    expect(off.status).toBe(200);
    await run();
    expect(await mailOf(alpha)).toEqual([]);

    // Back on, but the lathe opts out: Alpha has no machine taking part.
    await api.h.send('PUT', '/api/emailnotifications', cookie, {
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: true,
    });
    await api.h.t.db
      .updateTable('machines')
      .set({ exclude_from_benchmarking: 1 })
      .where('id', '=', p.lathe)
      .execute();
    await run();
    expect(await mailOf(alpha)).toEqual([]);

    // Opted in again, the company excluded.
    await api.h.t.db
      .updateTable('machines')
      .set({ exclude_from_benchmarking: 0 })
      .where('id', '=', p.lathe)
      .execute();
    await api.h.t.db
      .updateTable('companies')
      .set({ exclude_from_benchmarking: 1 })
      .where('id', '=', alpha.id)
      .execute();
    await run();
    expect(await mailOf(alpha)).toEqual([]);
  });
});
