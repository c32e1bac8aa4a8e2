import type { Kysely } from 'kysely';

// reports-admin §3 "Adapter type: id, name, displayName, defaultConfig, supervised" and the activation
// fields of §3 Agent/gateway (docs/decisions/0401-adapter-types-and-gateway-activation.md). Frozen once
// shipped; portable SQL only (ids and JSON are made here in JavaScript, not by the database).

/**
 * The adapter types as of this migration. An adapter's `class` names one (by `name`); `id`s are fixed so
 * every installation agrees on them. Later types come with later migrations.
 */
const SEED = [
  {
    id: 'mtconnect',
    name: 'MTConnect',
    display_name: 'MTConnect adapter (SHDR)',
    // 7878: the MTConnect adapter's customary SHDR port.
    default_config: JSON.stringify({ port: 7878 }),
    supervised: 0,
  },
  {
    id: 'mtconnect-agent',
    name: 'MTConnectAgent',
    display_name: 'MTConnect agent (HTTP)',
    // The agent source's poll interval once caught up (services/ingest agent-client).
    default_config: JSON.stringify({ pollIntervalMs: 1000 }),
    supervised: 0,
  },
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Global reference data: no company_id (like companies, it is outside the company scope).
  await db.schema
    .createTable('adapter_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // what adapters.class holds
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    // JSON: the config a new adapter of this type starts from (the adapter form fills it in)
    .addColumn('default_config', 'text')
    // 1: run and restarted by an edge gateway's supervisor; 0: runs on its own (at the machine)
    .addColumn('supervised', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto('adapter_types')
    .values([...SEED])
    .execute();

  // Adapters saved before this migration keep working: any class they use becomes a type of its own.
  const known = new Set<string>(SEED.map((t) => t.name));
  const used = (await db.selectFrom('adapters').select('class').distinct().execute()) as Array<{
    class: string;
  }>;
  const extra = used.map((r) => r.class).filter((name) => !known.has(name));
  if (extra.length > 0)
    await db
      .insertInto('adapter_types')
      .values(
        extra.map((name) => ({
          id: crypto.randomUUID(),
          name,
          display_name: name,
          default_config: null,
          supervised: 0,
        })),
      )
      .execute();

  // The gateway's current activation: issued with each push token (create, reset), activated by the
  // edge's first accepted push, gone on deregister. The token itself is never stored (only its hash,
  // token_hash); activation_token_hint is its masked form `tgw_...` + the last 6 characters.
  for (const [name, type] of [
    ['activation_id', 'text'],
    ['activation_token_hint', 'text'],
    ['activation_issued_at', 'bigint'],
    ['activated_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('gateways').addColumn(name, type).execute();
  }
  // Gateways with a token get an activation id; when it was issued is their creation (the best we know),
  // when they activated is unknown (null). Their token hint is unknown too: a reset shows the new one.
  const withToken = (await db
    .selectFrom('gateways')
    .select(['id', 'created_at'])
    .where('token_hash', 'is not', null)
    .execute()) as Array<{ id: string; created_at: number | string }>;
  for (const g of withToken)
    await db
      .updateTable('gateways')
      .set({ activation_id: crypto.randomUUID(), activation_issued_at: g.created_at })
      .where('id', '=', g.id)
      .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['activated_at', 'activation_issued_at', 'activation_token_hint', 'activation_id'])
    await db.schema.alterTable('gateways').dropColumn(c).execute();
  await db.schema.dropTable('adapter_types').execute();
}
