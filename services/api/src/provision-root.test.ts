import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { ApiHarness } from './testing/app';
import { apiHarnessOn } from './testing/app';
import { aCompany, aUser } from './testing/builders';
import { parseEnv } from './env';
import { ensureRoot, RootError } from './provision-root';
import { runRootCli } from './ops/root-cli';

// Issue 28 point 2, decision 1040: TAKT_ROOT_EMAIL / TAKT_ROOT_PASSWORD at start and `npm run root` make or
// promote a root (staff) user, who then reaches the internal screens' calls.

const START = 1_763_800_000_000;

describe.each(DIALECTS)('a way in for staff on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = apiHarnessOn(await freshDb(dialect), START);
  });
  afterEach(async () => {
    await h.close();
  });

  const internalStatus = async (email: string, password: string) =>
    (await h.get('/api/internal/companies', await h.login(email, password))).status;

  it('creates the root user from the environment once, on an empty database too, and it opens the internal calls', async () => {
    expect(await ensureRoot(h.t.db, { email: 'Staff@Takt.example', password: 'Staff-pass1', now: 1 })).toBe(
      'created',
    );
    expect(await ensureRoot(h.t.db, { email: 'staff@takt.example', password: 'Other-pass1', now: 2 })).toBe(
      'exists',
    );
    // The first password stays: a restart with another TAKT_ROOT_PASSWORD changes nobody's password.
    expect(await internalStatus('staff@takt.example', 'Staff-pass1')).toBe(200);
    const users = await h.t.db.selectFrom('users').select(['is_root', 'role']).execute();
    expect(users).toEqual([{ is_root: 1, role: 'admin' }]);
  });

  it('promotes an existing user of any company, keeping its password, role and company', async () => {
    const company = await aCompany(h.t.db);
    const manager = await aUser(h.t.db, company, { role: 'manager' });
    expect(await internalStatus(manager.email, manager.password)).toBe(403);
    expect(await ensureRoot(h.t.db, { email: manager.email, now: 2 })).toBe('promoted');
    expect(await internalStatus(manager.email, manager.password)).toBe(200);
    const row = await h.t.db
      .selectFrom('users')
      .select(['role', 'company_id'])
      .where('id', '=', manager.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'manager', company_id: company.id });
  });

  it('refuses to create a root user without a password, or with a weak one', async () => {
    await expect(ensureRoot(h.t.db, { email: 'nobody@takt.example', now: 1 })).rejects.toThrow(RootError);
    await expect(
      ensureRoot(h.t.db, { email: 'nobody@takt.example', password: 'short', now: 1 }),
    ).rejects.toThrow('Password must be at least 8 characters.');
    expect(await h.t.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('npm run root promotes a user of an existing install, and creates one with TAKT_ROOT_PASSWORD', async () => {
    const company = await aCompany(h.t.db);
    const admin = await aUser(h.t.db, company, { role: 'admin' });
    const lines: string[] = [];
    const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(`E ${l}`) };
    const env = { DATABASE_URL: h.t.url };

    expect(await runRootCli([admin.email], env, out)).toBe(0);
    expect(lines.pop()).toContain(`${admin.email} promoted to root`);
    expect(await internalStatus(admin.email, admin.password)).toBe(200);

    expect(await runRootCli(['new-staff@takt.example'], env, out)).toBe(1);
    expect(lines.pop()).toMatch(/^E no user has the e-mail new-staff@takt.example/);
    expect(
      await runRootCli(['new-staff@takt.example'], { ...env, TAKT_ROOT_PASSWORD: 'New-staff1' }, out),
    ).toBe(0);
    expect(lines.pop()).toContain('new-staff@takt.example created as a root user');
    expect(await internalStatus('new-staff@takt.example', 'New-staff1')).toBe(200);
    const made = await h.t.db
      .selectFrom('users')
      .select('company_id')
      .where('email', '=', 'new-staff@takt.example')
      .executeTakeFirstOrThrow();
    expect(made.company_id).toBe(company.id);

    expect(await runRootCli([], env, out)).toBe(2);
    expect(await runRootCli(['--password', 'x'], env, out)).toBe(2);
  });
});

describe('root configuration', () => {
  it('reads TAKT_ROOT_EMAIL and TAKT_ROOT_PASSWORD, refusing a malformed e-mail', () => {
    expect(
      parseEnv({ TAKT_ROOT_EMAIL: 'staff@plant.example', TAKT_ROOT_PASSWORD: 'Staff-pass1' }),
    ).toMatchObject({ TAKT_ROOT_EMAIL: 'staff@plant.example', TAKT_ROOT_PASSWORD: 'Staff-pass1' });
    expect(parseEnv({ TAKT_ROOT_EMAIL: '', TAKT_ROOT_PASSWORD: '' })).toMatchObject({
      TAKT_ROOT_EMAIL: undefined,
      TAKT_ROOT_PASSWORD: undefined,
    });
    expect(() => parseEnv({ TAKT_ROOT_EMAIL: 'not an address' })).toThrow(/TAKT_ROOT_EMAIL/);
  });
});
