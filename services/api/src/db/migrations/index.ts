import type { Migration } from 'kysely';
import * as m0001 from './2026-11-22-0001-initial';

// Listed explicitly (not read from disk) so bundling and tests see the same set, in order.
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-initial': m0001,
};
