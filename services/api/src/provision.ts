import type { Kysely } from 'kysely';
import { hashPassword } from './auth/passwords';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import type { AdapterFieldInput } from './repositories/adapters';
import { createAdapter } from './repositories/adapters';
import { createCompany, findDemoCompany, firstCompany, setSetupStagesEnabled } from './repositories/company';
import { machinesWithSources, setSourceAddress, createShdrSource } from './repositories/machine-sources';
import { createGroup, createMachine } from './repositories/machines';
import { createUser, findUserForLogin } from './repositories/users';
import { seedDemoJobs } from './provision-live-jobs';
import { seedDemoReasons } from './provision-live-reasons';

export const DEMO_COMPANY_NAME = 'Demo Machine Shop';

/** The demo logins, printed at start. Demo data only: a real plant starts with TAKT_ADMIN_EMAIL instead. */
export const DEMO_LOGINS = [
  { role: 'admin', email: 'admin@takt.example', password: 'TaktAdmin1', displayName: 'Ada Admin' },
  { role: 'manager', email: 'manager@takt.example', password: 'TaktManager1', displayName: 'Max Manager' },
  {
    role: 'operator',
    email: 'operator@takt.example',
    password: 'TaktOperator1',
    displayName: 'Otto Operator',
  },
] as const;

/**
 * Manual work centers of the demo (live-operations §1: work centers are machines or manual stations). They
 * have no adapter and no simulated source: operators count parts with Add Part and Undo on the floor app.
 */
export const DEMO_MANUAL_STATIONS = [{ group: 'Assembly', stations: ['Assembly Bench 1'] }] as const;

/** A simulated plant of 12 machines in 2 groups. */
export const DEMO_PLANT = [
  {
    group: 'Milling',
    machines: [
      'Haas VF-2 #1',
      'Haas VF-2 #2',
      'Haas VF-4',
      'DMG Mori NHX 4000',
      'Mazak VCN-530C',
      'Okuma Genos M560',
    ],
  },
  {
    group: 'Turning',
    machines: [
      'Okuma LB3000',
      'Okuma Genos L250',
      'Mazak QT-250',
      'Doosan Puma 2600',
      'Haas ST-20',
      'Citizen L20',
    ],
  },
] as const;

/** Names of the machines beyond DEMO_PLANT's 12 when the plant has `total`, dealt to its groups in turn. */
export function demoMachineNames(total: number): string[] {
  const named = DEMO_PLANT.reduce((n, g) => n + g.machines.length, 0);
  return Array.from(
    { length: Math.max(0, total - named) },
    (_, i) => `Demo Machine ${String(named + i + 1).padStart(2, '0')}`,
  );
}

export interface DemoMachine {
  machineId: string;
  name: string;
  port: number;
  seed: number;
}

/**
 * Seed the demo company once (users, groups, machines, an adapter with the simulator's fields, one SHDR
 * source per machine on 127.0.0.1), and on every start point the sources at this run's ports.
 * Returns the machines the simulator must play.
 */
export async function ensureDemoCompany(
  db: Kysely<Database>,
  opts: {
    portBase: number;
    seed: number;
    adapterFields: AdapterFieldInput[];
    now: number;
    /** Plant size when first made; beyond DEMO_PLANT's 12 come demoMachineNames (load tests). */
    machines?: number;
  },
): Promise<DemoMachine[]> {
  let company = await findDemoCompany(db);
  if (!company) {
    company = await db.transaction().execute(async (trx) => {
      const c = await createCompany(
        trx,
        {
          name: DEMO_COMPANY_NAME,
          timezone: 'America/Chicago',
          locale: 'en-US',
          productTier: 'full',
          isDemo: true,
        },
        opts.now,
      );
      const scope = companyScope(trx, c.id);
      for (const login of DEMO_LOGINS) {
        if (await findUserForLogin(trx, login.email)) continue;
        await createUser(
          scope,
          {
            email: login.email,
            displayName: login.displayName,
            role: login.role,
            passwordHash: await hashPassword(login.password),
          },
          opts.now,
        );
      }
      const adapterId = await createAdapter(
        scope,
        {
          name: 'Takt demo simulator',
          notes: 'SHDR adapter of the simulated demo plant',
          // The simulator speaks SHDR: the MTConnect adapter type seeded by migration 0010.
          className: 'MTConnect',
          fields: opts.adapterFields,
        },
        opts.now,
      );
      let order = 0;
      const extra = demoMachineNames(opts.machines ?? 12);
      for (const [gi, g] of DEMO_PLANT.entries()) {
        const groupId = await createGroup(scope, { name: g.group, sortOrder: gi }, opts.now);
        for (const name of [...g.machines, ...extra.filter((_, i) => i % DEMO_PLANT.length === gi)]) {
          const machineId = await createMachine(
            scope,
            { name, sortOrder: order, adapterId, groupIds: [groupId], downtimeFailureDelay: 5 },
            opts.now,
          );
          await createShdrSource(
            scope,
            { machineId, host: '127.0.0.1', port: opts.portBase + order },
            opts.now,
          );
          order += 1;
        }
      }
      for (const [i, g] of DEMO_MANUAL_STATIONS.entries()) {
        const groupId = await createGroup(
          scope,
          { name: g.group, sortOrder: DEMO_PLANT.length + i },
          opts.now,
        );
        for (const name of g.stations) {
          await createMachine(
            scope,
            {
              name,
              workcenterType: 'manual',
              sortOrder: order,
              groupIds: [groupId],
              downtimeFailureDelay: 5,
            },
            opts.now,
          );
          order += 1;
        }
      }
      // The floor shows one button per setup stage (live-operations §2 Start Job overlay) when stages are on.
      await setSetupStagesEnabled(trx, c.id, true);
      return c;
    });
  }

  const scope = companyScope(db, company.id);
  // Jobs, stages, operators, shifts, downtime and reject reasons: every flow can be tried at once.
  // Both seeds do nothing when the company already has their data.
  await scope.transaction(async (tx) => {
    await seedDemoJobs(tx, opts.now);
    await seedDemoReasons(tx, opts.now);
  });
  const rows = await machinesWithSources(scope);
  const plant: DemoMachine[] = [];
  for (const [i, r] of rows.entries()) {
    const port = opts.portBase + i;
    if (r.port !== port) {
      await setSourceAddress(scope, r.sourceId, { host: '127.0.0.1', port });
    }
    plant.push({ machineId: r.machineId, name: r.name, port, seed: opts.seed + i });
  }
  return plant;
}

/**
 * ARCHITECTURE.md "Conventions": when TAKT_ADMIN_EMAIL names no user yet, create that admin in the first
 * company (the demo company when the demo is on), creating a company when there is none.
 */
export async function ensureAdmin(
  db: Kysely<Database>,
  opts: { email: string; password: string; now: number },
): Promise<'created' | 'exists'> {
  if (await findUserForLogin(db, opts.email)) return 'exists';
  const company =
    (await findDemoCompany(db)) ??
    (await firstCompany(db)) ??
    (await createCompany(db, { name: 'My Company' }, opts.now));
  await createUser(
    companyScope(db, company.id),
    {
      email: opts.email,
      displayName: opts.email.split('@')[0] ?? 'Admin',
      role: 'admin',
      passwordHash: await hashPassword(opts.password),
    },
    opts.now,
  );
  return 'created';
}
