import type { Kysely } from 'kysely';

// live-operations §3 entities: jobs, dispatch, setup, downtime reasons and annotations, rejects, operators,
// shifts, company flags and the offline sync log. Frozen once shipped; portable SQL only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Company flags (live-operations §3 "Company flags used here", reports-admin §3 Company).
  for (const [name, type, dflt] of [
    ['enable_setup_stages', 'integer', 0],
    ['hide_remove_rejected_parts_checkbox', 'integer', 0],
    ['activities_enabled', 'integer', 0],
    ['cycleinputoption', 'text', 'timepercycle'],
    ['enable_tablet_machine_switching', 'integer', 1],
    ['downtime_list_filter_duration_ms', 'bigint', 120_000],
    ['time_context_offset_ms', 'bigint', 0],
    ['warningpercent', 'integer', 90],
    ['failurepercent', 'integer', 75],
    ['utilization_warningpercent', 'integer', 60],
    ['utilization_failurepercent', 'integer', 40],
  ] as const) {
    await db.schema
      .alterTable('companies')
      .addColumn(name, type, (c) => c.notNull().defaultTo(dflt))
      .execute();
  }
  await db.schema.alterTable('companies').addColumn('future_time_context_offset_ms', 'bigint').execute();
  await db.schema.alterTable('companies').addColumn('future_time_context_effective', 'text').execute();

  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('shift_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('shift_id', 'text', (c) => c.notNull().references('shifts.id'))
    .addColumn('startoffsetminutes', 'integer', (c) => c.notNull())
    .addColumn('endoffsetminutes', 'integer', (c) => c.notNull())
    // 0=Monday..6=Sunday, comma separated
    .addColumn('byweekday', 'text', (c) => c.notNull())
    // shop dates as YYYY-MM-DD
    .addColumn('effectivedate', 'text', (c) => c.notNull())
    .addColumn('terminationdate', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shift_versions_shift').on('shift_versions').column('shift_id').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('erp_job_id', 'text')
    .addColumn('expected_cycle_time', 'bigint', (c) => c.notNull().defaultTo(60_000))
    .addColumn('ideal_cycle_time', 'bigint', (c) => c.notNull().defaultTo(60_000))
    .addColumn('part_count_multiplier', 'double precision', (c) => c.notNull().defaultTo(1))
    .addColumn('actual_parts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('setuptime', 'integer')
    .addColumn('quantity', 'integer')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_company_name').on('jobs').columns(['company_id', 'name']).execute();

  await db.schema
    .createTable('job_machines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('expected_cycle_time', 'bigint', (c) => c.notNull().defaultTo(60_000))
    .addColumn('ideal_cycle_time', 'bigint', (c) => c.notNull().defaultTo(60_000))
    .addColumn('part_count_multiplier', 'double precision', (c) => c.notNull().defaultTo(1))
    .addColumn('actual_parts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reported_parts', 'integer')
    .addColumn('required_cycles', 'integer')
    // seconds; null = start-in-setup none
    .addColumn('setuptime', 'integer')
    .addColumn('part_behavior', 'text', (c) => c.notNull().defaultTo('one'))
    .addColumn('start_in_setup', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('schedule_ends', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('job_machines_job_machine', ['job_id', 'machine_id'])
    .execute();
  await db.schema.createIndex('job_machines_machine').on('job_machines').column('machine_id').execute();

  await db.schema
    .createTable('setup_stages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stage_order', 'integer', (c) => c.notNull())
    .addColumn('setup_percentage', 'double precision', (c) => c.notNull())
    .addColumn('archived_at', 'bigint')
    .execute();

  // A job run ("job schedule group"): one job on one machine from start to stop, its setup and standards.
  await db.schema
    .createTable('job_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id'))
    .addColumn('job_machine_id', 'text', (c) => c.references('job_machines.id'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    // none | planned | unplanned
    .addColumn('setup_mode', 'text', (c) => c.notNull())
    // when production started; null while in setup
    .addColumn('setup_end', 'bigint')
    .addColumn('expected_cycle_time', 'bigint', (c) => c.notNull())
    .addColumn('ideal_cycle_time', 'bigint', (c) => c.notNull())
    .addColumn('part_count_multiplier', 'double precision', (c) => c.notNull())
    .addColumn('actual_parts', 'integer', (c) => c.notNull())
    .addColumn('reported_parts', 'integer')
    .addColumn('required_cycles', 'integer')
    .addColumn('part_behavior', 'text', (c) => c.notNull())
    .addColumn('expected_setup_ms', 'bigint')
    .addColumn('setup_note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('job_runs_machine_start')
    .on('job_runs')
    .columns(['machine_id', 'start_at'])
    .execute();

  await db.schema
    .createTable('labor_activities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('job_run_id', 'text', (c) => c.notNull().references('job_runs.id'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('setup_stage_id', 'text', (c) => c.references('setup_stages.id'))
    .addColumn('setup', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('labor_activities_run').on('labor_activities').column('job_run_id').execute();

  await db.schema
    .createTable('annotation_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('planned_behavior', 'text', (c) => c.notNull())
    .addColumn('planned_limit_ms', 'bigint')
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#828282'))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('annotations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('annotation_type_id', 'text', (c) => c.references('annotation_types.id'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('message', 'text')
    // 1 planned, 0 unplanned, null exceeded limit / uncategorized
    .addColumn('planned', 'integer')
    .addColumn('setup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active_setup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('annotations_machine_start')
    .on('annotations')
    .columns(['machine_id', 'start_at'])
    .execute();

  await db.schema
    .createTable('part_adjustment_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#828282'))
    .addColumn('scrap', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reject_behavior', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('part_adjustments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('adjustment_time', 'bigint', (c) => c.notNull())
    .addColumn('type_id', 'text', (c) => c.references('part_adjustment_types.id'))
    .addColumn('scrapcount', 'integer', (c) => c.notNull().defaultTo(0))
    // signed change to the machine's part total (corrections, rejects not already counted, setup removals)
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    // scrap | nonconform | null (a plain correction)
    .addColumn('reject_behavior', 'text')
    .addColumn('deduct_from_good_parts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_run_id', 'text', (c) => c.references('job_runs.id'))
    // setup | correction | reject | manual
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('part_adjustments_machine_time')
    .on('part_adjustments')
    .columns(['machine_id', 'adjustment_time'])
    .execute();

  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('erp_id', 'text')
    .addColumn('archived_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('operator_runs_machine')
    .on('operator_runs')
    .columns(['machine_id', 'start_at'])
    .execute();

  // ARCHITECTURE.md offline sync: one row per client command id; a repeat answers the stored result.
  await db.schema
    .createTable('sync_commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('caller', 'text')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'sync_commands',
    'operator_runs',
    'operators',
    'part_adjustments',
    'part_adjustment_types',
    'annotations',
    'annotation_types',
    'labor_activities',
    'job_runs',
    'setup_stages',
    'job_machines',
    'jobs',
    'shift_versions',
    'shifts',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
