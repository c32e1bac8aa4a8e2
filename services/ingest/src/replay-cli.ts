// `npm run replay -- <file.shdr> [--devices Devices.xml --device NAME] [--machine NAME] [--company NAME]
//   [--speed max|realtime|<factor>] [--cycles part_count|execution] [--json]`
// Feeds a SHDR log into a machine (created if missing) on the configured database (DATABASE_URL), through
// the same pipeline as live ingest, and with --json prints one summary computed from what was stored.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Kysely } from 'kysely';
import { parseEnv } from '@takt/api';
import { companyScope, migrateToLatest, openDb } from '@takt/api/db';
import type { Database } from '@takt/api/db';
import { applyStandards, epochMs, stateDurations } from '@takt/domain';
import type { MachineCycle, StateInterval } from '@takt/domain';
import { MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import { parseReplaySpeed, replayShdr } from './replay';
import type { ReplaySpeed } from './replay';
import { writeBatch } from './store';
import type { ObservationRow } from './store';
import { conditionText } from './service';

export interface ReplayArgs {
  file: string;
  devices?: string;
  device?: string;
  machine?: string;
  company?: string;
  speed: ReplaySpeed;
  cycles?: 'part_count' | 'execution';
  json: boolean;
}

export function parseReplayArgs(argv: string[]): ReplayArgs | { error: string } {
  const args: Partial<ReplayArgs> & { json: boolean; speed: ReplaySpeed } = { json: false, speed: 'max' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--json') args.json = true;
      else if (a === '--devices') args.devices = value();
      else if (a === '--device') args.device = value();
      else if (a === '--machine') args.machine = value();
      else if (a === '--company') args.company = value();
      else if (a === '--cycles') {
        const v = value();
        if (v !== 'part_count' && v !== 'execution')
          return { error: '--cycles must be part_count or execution' };
        args.cycles = v;
      } else if (a === '--speed') {
        const s = parseReplaySpeed(value());
        if (s === null) return { error: '--speed must be max, realtime or a positive factor' };
        args.speed = s;
      } else if (a.startsWith('--')) return { error: `unknown option ${a}` };
      else if (!args.file) args.file = a;
      else return { error: `unexpected argument ${a}` };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
  if (!args.file)
    return {
      error:
        'usage: npm run replay -- <file.shdr> [--devices Devices.xml --device NAME] [--machine NAME] [--speed max|realtime|<factor>] [--json]',
    };
  return args as ReplayArgs;
}

/** Without a device description, well-known key names stand for their data items (the adapter's field mapping). */
const KEY_GUESSES: Array<[RegExp, string]> = [
  [/^(p\d*)?execution$|^program_status$/i, 'EXECUTION'],
  [/^avail(ability)?$/i, 'AVAILABILITY'],
  [/^(p\d*)?part_?count$/i, 'PART_COUNT'],
  [/^(p\d*)?(mode|controller_?mode)$/i, 'CONTROLLER_MODE'],
  [/^(p\d*)?program(_name_running)?$/i, 'PROGRAM'],
  [/^s\d*(speed|_?rpm)$|^spindle_speed$/i, 'ROTARY_VELOCITY'],
  [/^(p\d*)?(path_)?feed_?rate$|^p\d*fact$/i, 'PATH_FEEDRATE'],
];

export function guessField(key: string): { type: string; subType: string | null } | null {
  for (const [re, type] of KEY_GUESSES) if (re.test(key)) return { type, subType: null };
  return null;
}

async function machineFor(
  db: Kysely<Database>,
  args: ReplayArgs,
  fields: Map<string, FieldMeaning>,
  now: number,
) {
  const companyRow = args.company
    ? await db.selectFrom('companies').select('id').where('name', '=', args.company).executeTakeFirst()
    : ((await db.selectFrom('companies').select('id').where('is_demo', '=', 1).executeTakeFirst()) ??
      (await db.selectFrom('companies').select('id').orderBy('created_at').executeTakeFirst()));
  let companyId = companyRow?.id;
  if (!companyId) {
    companyId = crypto.randomUUID();
    await db
      .insertInto('companies')
      .values({
        id: companyId,
        name: args.company ?? 'Replay',
        timezone: 'UTC',
        locale: 'en-US',
        product_tier: 'full',
        is_demo: 0,
        created_at: now,
      })
      .execute();
  }
  const scope = companyScope(db, companyId);
  const name = args.machine ?? args.device ?? basename(args.file).replace(/\.[^.]*$/, '');
  const existing = await scope
    .selectFrom('machines')
    .select(['id', 'adapter_id'])
    .where('name', '=', name)
    .executeTakeFirst();
  const adapterId = crypto.randomUUID();
  await scope.transaction(async (tx) => {
    await tx
      .insertInto('adapters', {
        id: adapterId,
        name: `Replay of ${basename(args.file)}`,
        notes: null,
        class: 'MTConnect',
        created_at: now,
      })
      .execute();
    if (fields.size > 0) {
      await tx
        .insertInto(
          'adapter_fields',
          [...fields].map(([key, f]) => ({
            id: crypto.randomUUID(),
            adapter_id: adapterId,
            name: key,
            data_item_type: f.type,
            data_item_subtype: f.subType,
            component_name: 'replay',
            component_type: 'Device',
          })),
        )
        .execute();
    }
  });
  let machineId = existing?.id;
  if (machineId) {
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
  } else {
    machineId = crypto.randomUUID();
    await scope
      .insertInto('machines', {
        id: machineId,
        name,
        workcenter_type: 'machine',
        sort_order: 0,
        downtime_failure_delay: 5,
        autostart_behavior: 'disabled',
        adapter_id: adapterId,
        decommissioned_at: null,
        created_at: now,
      })
      .execute();
  }
  return { companyId, machineId, name };
}

export interface ReplayResult {
  lines: number;
  observations: number;
  rejected: number;
  from: number | null;
  to: number | null;
  stateMs: Record<'ACTIVE' | 'INACTIVE' | 'SETUP' | 'FAULT' | 'UNAVAILABLE', number>;
  cycles: number;
  parts: number;
  machineId: string;
}

/** Replay a log into the database and summarize what was stored. */
export async function runReplay(
  db: Kysely<Database>,
  args: ReplayArgs,
  now: () => number = Date.now,
): Promise<ReplayResult> {
  const devicesXml = args.devices ? readFileSync(args.devices, 'utf8') : undefined;
  // First pass (fast, no IO): which keys does the log use, and what do they mean?
  const fields = new Map<string, FieldMeaning>();
  await replayShdr({
    source: args.file,
    speed: 'max',
    ...(devicesXml !== undefined ? { devicesXml } : {}),
    ...(args.device ? { device: args.device } : {}),
    onObservations: (obs) => {
      for (const o of obs) {
        if (fields.has(o.key) || o.kind !== 'value') continue;
        const meaning = o.dataItem
          ? { type: o.dataItem.type, subType: o.dataItem.subType }
          : devicesXml
            ? null
            : guessField(o.key);
        if (meaning) fields.set(o.key, meaning);
      }
    },
  });
  const cycleSource =
    args.cycles ?? ([...fields.values()].some((f) => f.type === 'PART_COUNT') ? 'part_count' : 'execution');
  const { companyId, machineId } = await machineFor(db, args, fields, now());
  await db.updateTable('machines').set({ cycle_source: cycleSource }).where('id', '=', machineId).execute();

  const pipeline = new MachinePipeline(companyId, machineId, fields, cycleSource, now());
  let buffer: ObservationRow[] = [];
  let started = false;
  // A recorded log has no PING/PONG, yet its adapter was connected all along: stand in for the heartbeats
  // once a minute of log time, so quiet stretches are not read as the 5-minute heartbeat loss.
  let lastTs = -Infinity;
  const heartbeatsUntil = (t: number) => {
    const beats = [];
    for (let h = lastTs + 60_000; h < t; h += 60_000)
      beats.push({ ts: epochMs(h), key: 'heartbeat' as const, value: null });
    pipeline.pushDomain(beats);
  };
  const flush = async () => {
    const t = now();
    const taken = pipeline.take(t);
    await writeBatch(db, {
      observations: buffer,
      derived: taken ? [{ companyId, machineId, ...taken }] : [],
      live: [pipeline.liveRow(t, taken?.result)],
      stats: [],
    });
    pipeline.stored(t);
    buffer = [];
  };
  const summary = await replayShdr({
    source: args.file,
    speed: args.speed,
    ...(devicesXml !== undefined ? { devicesXml } : {}),
    ...(args.device ? { device: args.device } : {}),
    onObservations: async (obs) => {
      const values = obs.filter((o) => o.kind !== 'asset');
      if (values.length === 0) return;
      const first = Math.min(...values.map((o) => o.ts));
      if (!started) {
        pipeline.setConnection('CONNECTED', first);
        started = true;
      } else if (first > lastTs) heartbeatsUntil(first);
      lastTs = Math.max(lastTs, ...values.map((o) => o.ts));
      for (const o of values) {
        const value = o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value;
        buffer.push({ company_id: companyId, machine_id: machineId, ts: o.ts, key: o.key, value });
      }
      pipeline.pushRaw(values, now());
      if (buffer.length >= 5000) await flush();
    },
  });
  await flush();

  // The summary is read back from storage through the same engine as the reports.
  const from = summary.from;
  const to = summary.to;
  let stateMs: ReplayResult['stateMs'] = { ACTIVE: 0, INACTIVE: 0, SETUP: 0, FAULT: 0, UNAVAILABLE: 0 };
  let cycles = 0;
  let parts = 0;
  if (from != null && to != null) {
    const rows = await db
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state', 'reason'])
      .where('machine_id', '=', machineId)
      .where('start_at', '<', to)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]))
      .orderBy('start_at')
      .execute();
    const intervals: StateInterval[] = rows.map((r) => ({
      start: epochMs(r.start_at),
      end: epochMs(r.end_at ?? to),
      state: r.state as StateInterval['state'],
      reason: r.reason,
    }));
    stateMs = stateDurations(intervals, epochMs(from), epochMs(to));
    const stored = await db
      .selectFrom('cycles')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('end_at', '>=', from)
      .where('end_at', '<=', to)
      .orderBy('end_at')
      .execute();
    const machineCycles: MachineCycle[] = stored.map((c) => ({
      start: epochMs(c.start_at),
      end: epochMs(c.end_at),
      duration: c.duration as MachineCycle['duration'],
      count: c.count,
      source: c.source as MachineCycle['source'],
      setup: c.setup === 1,
    }));
    cycles = machineCycles.length;
    parts = applyStandards(machineCycles, []).reduce((sum, c) => sum + c.parts, 0);
  }
  return {
    lines: summary.lines,
    observations: summary.observations,
    rejected: summary.rejected,
    from,
    to,
    stateMs,
    cycles,
    parts,
    machineId,
  };
}

async function main() {
  const args = parseReplayArgs(process.argv.slice(2));
  if ('error' in args) {
    console.error(args.error);
    process.exit(2);
  }
  const env = parseEnv(process.env);
  const database = openDb(env.DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    const result = await runReplay(database.db, args);
    const { machineId: _m, ...json } = result;
    if (args.json) console.log(JSON.stringify(json));
    else
      console.log(
        `replayed ${result.lines} lines (${result.observations} observations, ${result.rejected} rejected) from ${new Date(result.from ?? 0).toISOString()} to ${new Date(result.to ?? 0).toISOString()}: ${result.cycles} cycles, ${result.parts} parts`,
      );
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`replay failed: ${(err as Error).message}`);
    process.exit(1);
  });
}
