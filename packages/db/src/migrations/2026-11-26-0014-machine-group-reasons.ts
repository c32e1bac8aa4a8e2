import type { Kysely } from 'kysely';

// reports-admin §3 Machine group annotationTypes, §2 "Machine groups: … downtime reasons (FullProduct)": the
// downtime reasons (annotation types) a machine group offers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('machine_group_annotation_types')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('machine_groups.id'))
    .addColumn('annotation_type_id', 'text', (c) => c.notNull().references('annotation_types.id'))
    .addPrimaryKeyConstraint('machine_group_annotation_types_pk', ['group_id', 'annotation_type_id'])
    .execute();
  await db.schema
    .createIndex('machine_group_annotation_types_type')
    .on('machine_group_annotation_types')
    .column('annotation_type_id')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('machine_group_annotation_types').execute();
}
