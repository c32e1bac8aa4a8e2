import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one. Portable SQL only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en-US'))
    .addColumn('product_tier', 'text', (c) => c.notNull().defaultTo('full'))
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('is_root', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_company').on('users').column('company_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('machine_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('erp_group_id', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machine_groups_company').on('machine_groups').column('company_id').execute();

  await db.schema
    .createTable('adapters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('class', 'text', (c) => c.notNull().defaultTo('MTConnect'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('adapter_fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('adapter_id', 'text', (c) => c.notNull().references('adapters.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data_item_type', 'text', (c) => c.notNull())
    .addColumn('data_item_subtype', 'text')
    .addColumn('component_name', 'text', (c) => c.notNull())
    .addColumn('component_type', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('adapter_fields_adapter').on('adapter_fields').column('adapter_id').execute();

  await db.schema
    .createTable('machines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('workcenter_type', 'text', (c) => c.notNull().defaultTo('machine'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downtime_failure_delay', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('autostart_behavior', 'text', (c) => c.notNull().defaultTo('disabled'))
    .addColumn('adapter_id', 'text', (c) => c.references('adapters.id'))
    .addColumn('decommissioned_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machines_company').on('machines').column('company_id').execute();

  await db.schema
    .createTable('machine_group_members')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('machine_groups.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addPrimaryKeyConstraint('machine_group_members_pk', ['group_id', 'machine_id'])
    .execute();
  await db.schema
    .createIndex('machine_group_members_machine')
    .on('machine_group_members')
    .column('machine_id')
    .execute();

  await db.schema
    .createTable('machine_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('stat_lines', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stat_observations', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stat_rejected', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_line_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machine_sources_machine').on('machine_sources').column('machine_id').execute();

  await db.schema
    .createTable('observations')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .execute();
  await db.schema
    .createIndex('observations_machine_ts')
    .on('observations')
    .columns(['machine_id', 'ts'])
    .execute();

  await db.schema
    .createTable('state_intervals')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('state_intervals_pk', ['machine_id', 'start_at'])
    .execute();

  await db.schema
    .createTable('machine_live')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id'))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_since', 'bigint')
    .addColumn('connection', 'text', (c) => c.notNull())
    .addColumn('connection_since', 'bigint')
    .addColumn('last_heartbeat', 'bigint')
    .addColumn('execution', 'text')
    .addColumn('execution_since', 'bigint')
    .addColumn('availability', 'text')
    .addColumn('controller_mode', 'text')
    .addColumn('program', 'text')
    .addColumn('part_count', 'bigint')
    .addColumn('spindle_speed', 'double precision')
    .addColumn('fault_since', 'bigint')
    .addColumn('fault_message', 'text')
    .addColumn('in_setup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machine_live_company').on('machine_live').column('company_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'machine_live',
    'state_intervals',
    'observations',
    'machine_sources',
    'machine_group_members',
    'machines',
    'adapter_fields',
    'adapters',
    'machine_groups',
    'sessions',
    'users',
    'companies',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
