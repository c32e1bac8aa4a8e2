import type { IngestBatch } from './store';

/**
 * A failure the same write need not meet again: a deadlock, a serialization or lock conflict, a lost connection, a
 * busy or shutting-down database (PostgreSQL SQLSTATE classes 40, 08, 53, 57 and 55P03; SQLite BUSY and LOCKED). The
 * batch is tried again whole; it is never a machine's bad write (decision 1121).
 */
export function transient(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  return /^(40|08|53|57)/.test(code) || code === '55P03';
}

/** A batch that did not commit: why, and the machines it wrote for. */
export interface BatchFailure {
  error: Error;
  machines: ReadonlySet<string>;
}

/** The rows `pick` keeps, and the others, each in their order. */
export function split<T>(rows: readonly T[], pick: (row: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const r of rows) (pick(r) ? yes : no).push(r);
  return [yes, no];
}

/** The machines a batch writes for. */
export function machinesOf(
  batch: IngestBatch,
  inbox: ReadonlyArray<{ machineId: string }>,
  counted: readonly string[],
): Set<string> {
  const ids = new Set<string>();
  for (const o of batch.observations) ids.add(o.machine_id);
  for (const d of batch.derived) ids.add(d.machineId);
  for (const l of batch.live) ids.add(l.machine_id);
  for (const d of inbox) ids.add(d.machineId);
  for (const m of counted) ids.add(m);
  return ids;
}
