import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import { lastCompleteWeek, peerDistribution } from '@takt/domain';
import type { BenchmarkWeek, PeerFigure } from '@takt/domain';
import type { Kysely } from 'kysely';
import { publicUrlOf } from '../http/public-url';
import { sendMail } from '../mail/send';
import type { MailTransport } from '../mail/transport';
import { getCompany } from '../repositories/company';
import type { Company } from '../repositories/company';
import type { ServiceCtx } from '../services/context';
import { utilizationReport } from '../services/report-utilization';
import { everyInterval } from '../workers/interval';
import { benchmarkMail } from './mail';
import type { MachineFigures } from './mail';
import {
  benchmarkRecipients,
  benchmarkingCompanies,
  claimBenchmarkMail,
  optedInMachines,
} from './repository';

// The weekly benchmarking e-mail (reports-admin §2 "toggle … benchmarking e-mails", §3 receiveBenchmarkingEmail,
// exclude_from_benchmarking, excludeFromBenchmarking; decision 1110). Each round, for every company that takes
// part, once its last complete week is over (Monday morning in its zone), every user who receives benchmarking
// e-mails and has not got that week's gets one: the company's opted-in machines' utilization and OEE of the week,
// as the Utilization report computes them, beside the quartiles of other companies' opted-in machines over the
// same hours. The claim row makes it once per user and week across restarts and API processes.

export interface BenchmarkWorkerDeps {
  db: Kysely<Database>;
  now: () => number;
  mail: MailTransport;
  /** TAKT_PUBLIC_URL: the e-mail's link to the e-mail preferences (decision 0989). */
  publicUrl?: string;
  log?: (message: string) => void;
}

/** Bounds of one round: companies looked at, e-mails sent (the rest go in the next round). */
export const BENCHMARK_COMPANIES_PER_ROUND = 1000;
export const BENCHMARK_MAILS_PER_ROUND = 200;
/** Rounds run every 15 minutes: Monday morning, give or take a quarter of an hour. */
export const BENCHMARK_INTERVAL_MS = 15 * 60_000;

/**
 * The report needs a caller; it reads nothing of it. The worker acts for no one, so a caller that is no user
 * of the company (an id no row has) and may not be mistaken for one.
 */
function workerCtx(db: Kysely<Database>, company: Company, now: number): ServiceCtx {
  return {
    scope: companyScope(db, company.id),
    at: now,
    now,
    caller: {
      kind: 'user',
      sessionToken: '',
      company,
      user: {
        id: 'worker:benchmarking',
        companyId: company.id,
        email: '',
        displayName: 'Benchmarking',
        role: 'manager',
        isRoot: false,
        locked: true,
      },
    },
  };
}

/** The opted-in machines' figures of one company over [start, end), from the Utilization report's machines. */
async function companyFigures(
  db: Kysely<Database>,
  companyId: string,
  range: { start: number; end: number },
  now: number,
): Promise<MachineFigures[]> {
  const company = await getCompany(db, companyId);
  if (!company) return [];
  const ctx = workerCtx(db, company, now);
  const machines = await optedInMachines(ctx.scope);
  if (machines.length === 0) return [];
  const report = await utilizationReport(ctx, { ...range, interval: 'week', unit: 'percent' });
  const byId = new Map(report.machines.map((m) => [m.machineId, m]));
  return machines.map((m) => {
    const r = byId.get(m.id);
    return { id: m.id, name: m.name, utilization: r?.inCycle ?? null, oee: r?.oee.oee ?? null };
  });
}

type FiguresOf = (companyId: string, week: BenchmarkWeek) => Promise<MachineFigures[]>;

/** Send the due e-mails of one company, at most `budget`; returns how many were claimed. */
async function sendCompanyBenchmarks(
  deps: BenchmarkWorkerDeps,
  companyId: string,
  taking: readonly string[],
  now: number,
  figuresOf: FiguresOf,
  budget: number,
): Promise<number> {
  const scope = companyScope(deps.db, companyId);
  const week = lastCompleteWeek(await loadCalendar(deps.db, companyId), now);
  if (now < week.sendFrom) return 0;
  const recipients = await benchmarkRecipients(scope, week.week, budget);
  if (recipients.length === 0) return 0;
  const [company, own] = await Promise.all([getCompany(deps.db, companyId), figuresOf(companyId, week)]);
  if (!company || own.length === 0) return 0;
  // Peers: other companies' opted-in machines over the same hours, one at a time (a 2-core box).
  const peers: Array<PeerFigure & { oee: number | null }> = [];
  for (const other of taking) {
    if (other === companyId) continue;
    for (const f of await figuresOf(other, week))
      if (f.utilization !== null) peers.push({ companyId: other, value: f.utilization, oee: f.oee });
  }
  const mail = benchmarkMail({
    companyName: company.name,
    timezone: company.timezone,
    week,
    machines: own,
    utilization: peerDistribution(peers),
    oee: peerDistribution(
      peers.flatMap((p) => (p.oee === null ? [] : [{ companyId: p.companyId, value: p.oee }])),
    ),
    preferencesUrl: `${publicUrlOf(deps)}/app/email-notifications`,
  });
  let claimed = 0;
  for (const user of recipients) {
    if (!(await claimBenchmarkMail(scope, user.id, week.week, now))) continue;
    claimed += 1;
    const result = await sendMail(scope, deps.mail, { userId: user.id, to: user.email, ...mail }, now);
    if (!result.ok) deps.log?.(`[benchmarking] e-mail to ${user.email} failed: ${result.error}`);
  }
  return claimed;
}

/** One round over every company that takes part; a company that fails is logged and the others go on. */
export async function runBenchmarkMails(deps: BenchmarkWorkerDeps): Promise<number> {
  const now = deps.now();
  const taking = await benchmarkingCompanies(deps.db, BENCHMARK_COMPANIES_PER_ROUND);
  // One report per company and week range in a round, however many companies compare against it.
  const cache = new Map<string, Promise<MachineFigures[]>>();
  const figuresOf: FiguresOf = (companyId, week) => {
    const key = `${companyId} ${week.start} ${week.end}`;
    let figures = cache.get(key);
    if (!figures) {
      figures = companyFigures(deps.db, companyId, week, now);
      cache.set(key, figures);
    }
    return figures;
  };
  let sent = 0;
  for (const companyId of taking) {
    if (sent >= BENCHMARK_MAILS_PER_ROUND) break;
    try {
      sent += await sendCompanyBenchmarks(
        deps,
        companyId,
        taking,
        now,
        figuresOf,
        BENCHMARK_MAILS_PER_ROUND - sent,
      );
    } catch (err) {
      deps.log?.(`[benchmarking] company ${companyId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return sent;
}

/** Every `intervalMs` in this process (main.ts); stop() waits for the running round. */
export function startBenchmarkWorker(deps: BenchmarkWorkerDeps, intervalMs = BENCHMARK_INTERVAL_MS) {
  return everyInterval(
    () => runBenchmarkMails(deps),
    intervalMs,
    (err) => deps.log?.(`[benchmarking] worker: ${err.message}`),
  );
}
