import { Migrator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { migrateToLatest } from '../connect';
import { migrations } from './index';

// Migration 0010 on a database that already has adapters and gateways: classes in use stay valid adapter
// types, and gateways holding a token get an activation.
describe.each(DIALECTS)('migration 0010 adapter types on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('2026-11-24-0009-sync-command-keys');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps the classes of existing adapters and gives tokened gateways an activation', async () => {
    // A company as the migrations up to 0009 know it.
    const company = { id: crypto.randomUUID() };
    await t.db
      .insertInto('companies')
      .values({
        id: company.id,
        name: 'Acme',
        timezone: 'UTC',
        locale: 'en-US',
        product_tier: 'full',
        is_demo: 0,
        created_at: 1,
      } as never)
      .execute();
    const adapter = (id: string, className: string) => ({
      id,
      company_id: company.id,
      name: id,
      class: className,
      created_at: 1,
    });
    await t.db
      .insertInto('adapters')
      .values([adapter('a1', 'MTConnect'), adapter('a2', 'Legacy'), adapter('a3', 'Legacy')])
      .execute();
    const gateway = (id: string, tokenHash: string | null) => ({
      id,
      company_id: company.id,
      name: id,
      token_hash: tokenHash,
      state: 'active' as const,
      activation_status: tokenHash ? ('activated' as const) : ('deregistered' as const),
      ingest_multiplier: 1,
      pusher_config: '{}',
      supervisor_config: '{}',
      created_at: 1_700_000_000_000,
    });
    // Columns of 0004 only: the activation columns do not exist yet.
    await t.db
      .insertInto('gateways')
      .values([gateway('g1', 'hash-1'), gateway('g2', null)])
      .execute();

    expect(await migrateToLatest(t.db)).toContain('2026-11-24-0010-adapter-types');

    const types = await t.db
      .selectFrom('adapter_types')
      .select(['name', 'display_name', 'default_config', 'supervised'])
      .orderBy('name')
      .execute();
    expect(types).toEqual([
      { name: 'Legacy', display_name: 'Legacy', default_config: null, supervised: 0 },
      {
        name: 'MTConnect',
        display_name: 'MTConnect adapter (SHDR)',
        default_config: '{"port":7878}',
        supervised: 0,
      },
      {
        name: 'MTConnectAgent',
        display_name: 'MTConnect agent (HTTP)',
        default_config: '{"pollIntervalMs":1000}',
        supervised: 0,
      },
    ]);
    const gateways = await t.db
      .selectFrom('gateways')
      .select(['id', 'activation_id', 'activation_token_hint', 'activation_issued_at', 'activated_at'])
      .orderBy('id')
      .execute();
    expect(gateways).toEqual([
      {
        id: 'g1',
        activation_id: expect.any(String) as string,
        activation_token_hint: null,
        activation_issued_at: 1_700_000_000_000,
        activated_at: null,
      },
      {
        id: 'g2',
        activation_id: null,
        activation_token_hint: null,
        activation_issued_at: null,
        activated_at: null,
      },
    ]);
  });
});
