import type { Executor } from '@takt/db';
import type { InternalCompany, InternalCompanyBody, InternalCompanyList } from '@takt/domain';
import { epochMs, toWall, trialBounds, trialProblem, trialProblemText } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import type { CompanyFields } from '../repositories/internal-companies';
import {
  getCompanyRow,
  insertCompany,
  lastSeenByCompany,
  listCompanyRows,
  machineCounts,
  setCompanyMuted,
  updateCompany,
} from '../repositories/internal-companies';

// reports-admin §2 "Internal company admin: list, toggle muted, machine count, total annual recurring revenue;
// create or edit with name, trial expiration date, product tier, ERP, timezone", §5 trial rule, §7 "company
// query (muted, rootMachines), save, update" (decisions 0920, 0921). Root only, across companies: `db` is the
// bare database on purpose (see repositories/internal-companies.ts).

export async function listInternalCompanies(
  db: Executor,
  q: { muted?: boolean | undefined; rootMachines: boolean },
): Promise<InternalCompanyList> {
  const [rows, counts, seen] = await Promise.all([
    listCompanyRows(db, q.muted),
    machineCounts(db, q.rootMachines),
    lastSeenByCompany(db),
  ]);
  const companies = rows.map((r) => ({
    ...r,
    machineCount: counts.get(r.id) ?? 0,
    lastSeen: seen.get(r.id) ?? null,
  }));
  return {
    companies,
    totalAnnualRecurringRevenue: companies.reduce((sum, c) => sum + (c.annualRecurringRevenue ?? 0), 0),
  };
}

async function companyView(db: Executor, id: string): Promise<InternalCompany> {
  const row = await getCompanyRow(db, id);
  if (!row) throw notFound('Company');
  const [counts, seen] = await Promise.all([machineCounts(db, false), lastSeenByCompany(db)]);
  return { ...row, machineCount: counts.get(id) ?? 0, lastSeen: seen.get(id) ?? null };
}

/**
 * reports-admin §5: the trial ends at most 365 days after today, not before today unless it already had a
 * past date, which may be kept. "Today" is the company's own calendar day in its time zone (decision 0921).
 */
function checkedFields(body: InternalCompanyBody, existingTrial: string | null, now: number): CompanyFields {
  const trial = body.trial_expiration_date ?? null;
  const today = toWall(body.timezone, epochMs(now)).day;
  const problem = trialProblem(trial, trialBounds(today, existingTrial));
  if (problem) {
    throw invalidInput([
      { field: 'trial_expiration_date', code: problem.kind, message: trialProblemText(problem) },
    ]);
  }
  const erp = body.erp?.trim() ? body.erp.trim() : null;
  return {
    name: body.name,
    timezone: body.timezone,
    product_tier: body.product_tier,
    erp,
    trial_expiration_date: trial,
    annual_recurring_revenue: body.annualRecurringRevenue ?? null,
  };
}

export async function createInternalCompany(
  db: Executor,
  body: InternalCompanyBody,
  now: number,
): Promise<InternalCompany> {
  const id = await insertCompany(db, checkedFields(body, null, now), now);
  return companyView(db, id);
}

export async function updateInternalCompany(
  db: Executor,
  id: string,
  body: InternalCompanyBody,
  now: number,
): Promise<InternalCompany> {
  const existing = await getCompanyRow(db, id);
  if (!existing) throw notFound('Company');
  await updateCompany(db, id, checkedFields(body, existing.trial_expiration_date, now));
  return companyView(db, id);
}

export async function muteInternalCompany(
  db: Executor,
  id: string,
  muted: boolean,
): Promise<InternalCompany> {
  if (!(await setCompanyMuted(db, id, muted))) throw notFound('Company');
  return companyView(db, id);
}
