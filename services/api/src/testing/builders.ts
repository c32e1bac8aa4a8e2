import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { createCompany } from '../repositories/company';
import type { Company } from '../repositories/company';
import { createGroup, createMachine } from '../repositories/machines';
import { createUser } from '../repositories/users';
import type { User } from '../repositories/users';

// Builders with defaults for test data (STYLE.md). Each call makes new ids, so tests never share rows.

let hashed: Promise<string> | undefined;
export const TEST_PASSWORD = 'Secret-pass1';
const testHash = () => (hashed ??= hashPassword(TEST_PASSWORD));

export async function aCompany(
  db: Kysely<Database>,
  over: Partial<Parameters<typeof createCompany>[1]> = {},
  now = 1_700_000_000_000,
): Promise<Company> {
  return createCompany(
    db,
    { name: `Company ${crypto.randomUUID().slice(0, 8)}`, timezone: 'America/Chicago', ...over },
    now,
  );
}

export async function aUser(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{ email: string; role: User['role']; isRoot: boolean; displayName: string }> = {},
): Promise<User & { password: string }> {
  const user = await createUser(
    companyScope(db, company.id),
    {
      email: over.email ?? `user-${crypto.randomUUID().slice(0, 8)}@test.example`,
      displayName: over.displayName ?? 'Test User',
      role: over.role ?? 'admin',
      isRoot: over.isRoot ?? false,
      passwordHash: await testHash(),
    },
    1_700_000_000_000,
  );
  return { ...user, password: TEST_PASSWORD };
}

export async function aMachine(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{
    name: string;
    groupIds: string[];
    sortOrder: number;
    workcenterType: 'machine' | 'manual' | 'other';
  }> = {},
): Promise<string> {
  return createMachine(
    companyScope(db, company.id),
    {
      name: over.name ?? `Machine ${crypto.randomUUID().slice(0, 6)}`,
      workcenterType: over.workcenterType ?? 'machine',
      groupIds: over.groupIds ?? [],
      sortOrder: over.sortOrder ?? 0,
    },
    1_700_000_000_000,
  );
}

export async function aGroup(db: Kysely<Database>, company: Company, name = 'Group'): Promise<string> {
  return createGroup(companyScope(db, company.id), { name }, 1_700_000_000_000);
}

/** Stores raw observations of a machine as ingest would: [ts, key, value] rows. */
export async function someObservations(
  db: Kysely<Database>,
  company: Company,
  machineId: string,
  rows: Array<[number, string, string | null]>,
): Promise<void> {
  await db
    .insertInto('observations')
    .values(
      rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machineId, ts, key, value })),
    )
    .execute();
}
