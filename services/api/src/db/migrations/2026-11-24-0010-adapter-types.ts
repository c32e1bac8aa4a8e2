import type { Kysely } from 'kysely';

// Reserved for this session's work; filled in by the change that needs it.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
