import { Hono } from 'hono';
import {
  internalCompanyBodySchema,
  internalCompanyMutedSchema,
  internalCompanyQuerySchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireRoot } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import {
  createInternalCompany,
  listInternalCompanies,
  muteInternalCompany,
  updateInternalCompany,
} from '../services/internal-companies';

// reports-admin §2 "Internal company admin", §7 "company query (muted, rootMachines), save, update"; root users
// only (§6), everyone else 403 (decision 0920). These calls name any company, so they take the bare database
// (c.var.deps.db), not the caller's company scope, which would confine a root user to their own company.
//
//   GET  /api/internal/companies?muted&rootMachines → { companies: InternalCompany[], totalAnnualRecurringRevenue }
//   POST /api/internal/companies                   { name, timezone, product_tier, erp?, trial_expiration_date?,
//                                                    annualRecurringRevenue? } → 201 InternalCompany
//   PUT  /api/internal/companies/:id               the same body → InternalCompany
//   PUT  /api/internal/companies/:id/muted         { muted } → InternalCompany

export const internalCompaniesRoutes = new Hono<AppEnv>()
  .use('*', requireRoot)
  .get('/', async (c) =>
    c.json(await listInternalCompanies(c.var.deps.db, queryParams(c, internalCompanyQuerySchema))),
  )
  .post('/', async (c) => {
    const body = await jsonBody(c, internalCompanyBodySchema);
    return c.json(await createInternalCompany(c.var.deps.db, body, c.var.deps.now()), 201);
  })
  .put('/:id', async (c) => {
    const body = await jsonBody(c, internalCompanyBodySchema);
    return c.json(await updateInternalCompany(c.var.deps.db, c.req.param('id'), body, c.var.deps.now()));
  })
  .put('/:id/muted', async (c) => {
    const { muted } = await jsonBody(c, internalCompanyMutedSchema);
    return c.json(await muteInternalCompany(c.var.deps.db, c.req.param('id'), muted));
  });
