import { z } from 'zod';
import { companyObservations, CONNECTION_KEY } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import { idSchema, namesJob } from '@takt/domain';
import { notFound } from '../http/errors';
import { adapterFieldTypes, latestPerKey } from '../repositories/diagnostics';
import { getMachine } from '../repositories/machines';
import { UNMAPPED_WINDOW_MS, unmappedKeys } from './dashboard';
import { machineDiagnostics } from './diagnostics';

// A machine's data stream as ingest knows it (reports-admin §7 "Machines: … streamInfo", "Adapters: …
// keyStatistics, unmappedStatus, autoJobDispatch"; decision 1107): its sources' counters and last line, the
// keys its data carries in a window (count, first and last time, last value, mapping), the keys no adapter
// field maps, and what its data says to auto job dispatch.

/** reports-admin §9 "Diagnostics heartbeat timeout 5 minutes"; the statistics window is 1 minute to 1 day. */
export const keyStatisticsQuerySchema = z.object({
  minutes: z.coerce
    .number({ error: 'minutes must be a number' })
    .int('minutes must be a whole number')
    .min(1, 'minutes must be from 1 to 1440')
    .max(1440, 'minutes must be from 1 to 1440')
    .default(60),
});

export const keyStatisticSchema = z.object({
  key: z.string(),
  count: z.number().int(),
  firstAt: z.number().int(),
  lastAt: z.number().int(),
  lastValue: z.string().nullable(),
  /** Observations a minute over the window. */
  perMinute: z.number(),
  mapped: z.boolean(),
  dataItemType: z.string().nullable(),
  dataItemSubtype: z.string().nullable(),
});

export const keyStatisticsSchema = z.object({
  machineId: idSchema,
  window: z.object({ from: z.number().int(), to: z.number().int() }),
  observations: z.number().int(),
  keys: z.array(keyStatisticSchema),
});
export type KeyStatistics = z.infer<typeof keyStatisticsSchema>;

/** keyStatistics: every key the machine's data carried in the last `minutes`, the connection log left out. */
export async function keyStatistics(
  scope: CompanyScope,
  machineId: string,
  minutes: number,
  now: number,
): Promise<KeyStatistics> {
  if (!(await getMachine(scope, machineId))) throw notFound('Machine');
  const from = now - minutes * 60_000;
  const [counts, latest, fields] = await Promise.all([
    // By the packs' time bounds (decision 1184).
    companyObservations(scope, [machineId], from, now + 1)
      .select((eb) => [
        'key',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.min<number>('ts').as('first'),
        eb.fn.max<number>('ts').as('last'),
      ])
      .where('key', '!=', CONNECTION_KEY)
      .groupBy('key')
      .execute(),
    latestPerKey(scope, machineId, from),
    adapterFieldTypes(scope, machineId),
  ]);
  const last = new Map(latest.map((o) => [o.key, o.value]));
  const keys = counts
    .map((c) => {
      const field = fields.get(c.key);
      const count = Number(c.n);
      return {
        key: c.key,
        count,
        firstAt: Number(c.first),
        lastAt: Number(c.last),
        lastValue: last.get(c.key) ?? null,
        perMinute: Math.round((count / minutes) * 100) / 100,
        mapped: field !== undefined,
        dataItemType: field?.dataItemType ?? null,
        dataItemSubtype: field?.dataItemSubtype ?? null,
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    machineId,
    window: { from, to: now },
    observations: keys.reduce((n, k) => n + k.count, 0),
    keys,
  };
}

export const streamInfoSchema = z.object({
  machineId: idSchema,
  now: z.number().int(),
  /** The connection in the same words as the diagnostics page, the tiles and the Machines list (1055). */
  connection: z.object({ state: z.string(), words: z.string(), lastHeartbeat: z.number().int().nullable() }),
  sources: z.array(
    z.object({
      id: idSchema,
      kind: z.string(),
      enabled: z.boolean(),
      lines: z.number().int(),
      observations: z.number().int(),
      rejected: z.number().int(),
      lastLineAt: z.number().int().nullable(),
    }),
  ),
  /** The last line any source delivered (null: never). */
  lastDataAt: z.number().int().nullable(),
  /** Since each source was added: lines, observations, rejected lines; then the last hour's keys. */
  totals: z.object({ lines: z.number().int(), observations: z.number().int(), rejected: z.number().int() }),
  lastHour: keyStatisticsSchema,
});
export type StreamInfo = z.infer<typeof streamInfoSchema>;

/** streamInfo: what ingest knows of the machine's data stream. */
export async function streamInfo(scope: CompanyScope, machineId: string, now: number): Promise<StreamInfo> {
  const diagnostics = await machineDiagnostics(scope, machineId, now);
  const [sources, lastHour] = await Promise.all([
    scope
      .selectFrom('machine_sources')
      .select(['id', 'kind', 'enabled', 'stat_lines', 'stat_observations', 'stat_rejected', 'last_line_at'])
      .where('machine_id', '=', machineId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    keyStatistics(scope, machineId, 60, now),
  ]);
  const { machineConnection, counters } = diagnostics;
  return {
    machineId,
    now,
    connection: {
      state: machineConnection.state,
      words: machineConnection.words,
      lastHeartbeat: machineConnection.lastHeartbeat,
    },
    sources: sources.map((s) => ({
      id: s.id,
      kind: s.kind,
      enabled: Number(s.enabled) === 1,
      lines: Number(s.stat_lines),
      observations: Number(s.stat_observations),
      rejected: Number(s.stat_rejected),
      lastLineAt: s.last_line_at == null ? null : Number(s.last_line_at),
    })),
    lastDataAt: counters.lastLineAt,
    totals: { lines: counters.lines, observations: counters.observations, rejected: counters.rejected },
    lastHour,
  };
}

export const unmappedStatusSchema = z.object({
  machineId: idSchema,
  adapterId: idSchema.nullable(),
  /** Keys the machine sent since `since` that its adapter has no field for, sorted. */
  unmapped: z.array(z.string()),
  since: z.number().int(),
  checkedAt: z.number().int(),
});
export type UnmappedStatus = z.infer<typeof unmappedStatusSchema>;

/** unmappedStatus (polled every 10 s): the dashboard's unmapped rule (the last hour) for one machine. */
export async function unmappedStatus(
  scope: CompanyScope,
  machineId: string,
  now: number,
): Promise<UnmappedStatus> {
  const machine = await getMachine(scope, machineId);
  if (!machine) throw notFound('Machine');
  const since = now - UNMAPPED_WINDOW_MS;
  const [entry] = await unmappedKeys(scope, [machineId], since);
  return { machineId, adapterId: machine.adapterId, unmapped: entry?.keys ?? [], since, checkedAt: now };
}

export const AUTO_DISPATCH_PROBLEMS = {
  off: 'Auto job dispatch is off for the company (Settings).',
  disabled: 'This machine does not start jobs from its data (autostart behavior disabled).',
  noProgram: 'The machine’s adapter maps no PROGRAM data item, so its data names no job.',
  noKey: 'The machine has no dispatch key: name the data item that carries the job.',
  notSeen: (key: string) => `The machine has not sent ${key} in the last day.`,
  unknown: (value: string) => `No active job is named ${value}: nothing starts until one is.`,
} as const;

export const autoJobDispatchSchema = z.object({
  machineId: idSchema,
  companyEnabled: z.boolean(),
  autostartBehavior: z.enum(['disabled', 'mes', 'key']),
  dispatchKey: z.string().nullable(),
  /** The adapter key whose value names the job (mes: the PROGRAM item; key: the dispatch key). */
  key: z.string().nullable(),
  lastValue: z.string().nullable(),
  lastValueAt: z.number().int().nullable(),
  /** The active job that value names now (by name, else ERP job id), null when none. */
  job: z.object({ id: idSchema, name: z.string() }).nullable(),
  /** Why the machine's data starts no job now, null when it would. */
  problem: z.string().nullable(),
});
export type AutoJobDispatch = z.infer<typeof autoJobDispatchSchema>;

/**
 * autoJobDispatch: what a machine's data says to auto job dispatch (decision 1094's rule, read not run): the key
 * that names the job, its last value in the last day and the job it names, or why nothing starts.
 */
export async function autoJobDispatch(
  scope: CompanyScope,
  machineId: string,
  now: number,
): Promise<AutoJobDispatch> {
  const [row, company] = await Promise.all([
    scope
      .selectFrom('machines')
      .select(['autostart_behavior', 'dispatch_key'])
      .where('id', '=', machineId)
      .executeTakeFirst(),
    scope.db
      .selectFrom('companies')
      .select('enable_auto_job_dispatch')
      .where('id', '=', scope.companyId)
      .executeTakeFirst(),
  ]);
  if (!row) throw notFound('Machine');
  const mode = row.autostart_behavior;
  const companyEnabled = Number(company?.enable_auto_job_dispatch ?? 0) === 1;
  const fields = await adapterFieldTypes(scope, machineId);
  const key =
    mode === 'disabled'
      ? null
      : ([...fields].find(([name, f]) =>
          namesJob(mode, row.dispatch_key, name, { type: f.dataItemType, subType: f.dataItemSubtype }),
        )?.[0] ?? (mode === 'key' ? (row.dispatch_key?.trim() ?? null) || null : null));
  const base = {
    machineId,
    companyEnabled,
    autostartBehavior: mode,
    dispatchKey: row.dispatch_key,
    key,
    lastValue: null,
    lastValueAt: null,
    job: null,
  };
  if (!companyEnabled) return { ...base, problem: AUTO_DISPATCH_PROBLEMS.off };
  if (mode === 'disabled') return { ...base, problem: AUTO_DISPATCH_PROBLEMS.disabled };
  if (key === null)
    return {
      ...base,
      problem: mode === 'mes' ? AUTO_DISPATCH_PROBLEMS.noProgram : AUTO_DISPATCH_PROBLEMS.noKey,
    };
  const last = await companyObservations(scope, [machineId], now - 86_400_000, now + 1)
    .select(['value', 'ts'])
    .where('key', '=', key)
    .orderBy('ts', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const value = last?.value?.trim() ?? '';
  if (!last || value === '') return { ...base, problem: AUTO_DISPATCH_PROBLEMS.notSeen(key) };
  const jobs = scope.selectFrom('jobs').select(['id', 'name']).where('hidden', '=', 0);
  const job =
    (await jobs.where('name', '=', value).orderBy('created_at').executeTakeFirst()) ??
    (await jobs.where('erp_job_id', '=', value).orderBy('created_at').executeTakeFirst());
  return {
    ...base,
    lastValue: last.value,
    lastValueAt: Number(last.ts),
    job: job ? { id: job.id, name: job.name } : null,
    problem: job ? null : AUTO_DISPATCH_PROBLEMS.unknown(value),
  };
}
