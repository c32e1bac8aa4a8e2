import type { Executor } from './scope';

/**
 * The machine sources that feed data, across all companies: enabled, on a machine in service (not
 * decommissioned). Ingest connects to these and the gateway list shows these; `s` is machine_sources and
 * `m` its machine, for the caller to join and select further.
 */
export const sourcesInService = (db: Executor) =>
  db
    .selectFrom('machine_sources as s')
    .innerJoin('machines as m', 'm.id', 's.machine_id')
    .where('s.enabled', '=', 1)
    .where('m.decommissioned_at', 'is', null);
