// Auto job dispatch (reports-admin §3 Machine autostartBehavior and dispatchKey; decision 1094): which value of a
// machine's data names the job it runs. Ingest picks such values out of what it stored; the API starts the job.

/** A stored value of a machine's data that names a job (raw key as stored; ts: the adapter's time). */
export interface DispatchValue {
  companyId: string;
  machineId: string;
  key: string;
  ts: number;
  value: string | null;
}

/**
 * `mes`: the machine's main program (the key its adapter maps as PROGRAM, not its ACTIVE sub-program) names the
 * job. `key`: the adapter key named by the machine's dispatchKey does (a work order or part id item).
 */
export function namesJob(
  mode: 'mes' | 'key',
  dispatchKey: string | null,
  key: string,
  field: { type: string; subType: string | null } | undefined,
): boolean {
  if (mode === 'key') return dispatchKey != null && dispatchKey.trim() !== '' && key === dispatchKey.trim();
  return field?.type.toUpperCase() === 'PROGRAM' && field.subType?.toUpperCase() !== 'ACTIVE';
}
