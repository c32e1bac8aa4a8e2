// `npm run replay -- <file.shdr> [--devices Devices.xml --device NAME] [--machine NAME] [--company NAME]
//   [--speed max|realtime|<factor>] [--cycles part_count|execution] [--json]`
// Feeds a SHDR log into a machine (created if missing) on the configured database (DATABASE_URL), through
// the same pipeline as live ingest, and with --json prints one summary computed from what was stored.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Kysely } from 'kysely';
import { DEFAULT_DATABASE_URL, companyScope, migrateToLatest, openDb } from '@takt/db';
import type { Database } from '@takt/db';
import { loadRollupSource } from '@takt/db/rollups';
import { epochMs, stateDurations } from '@takt/domain';
import { MachinePipeline } from '../worker/pipeline';
import type { FieldMeaning } from '../worker/pipeline';
import { parseReplaySpeed, replayShdr } from './replay';
import type { ReplayObservation, ReplaySpeed, ReplaySummary } from './replay';
import { keyKindsFromFields } from '../sources/devices/devices';
import { loadFieldMaps, writeBatch } from '../worker/store';

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

/** The company replayed into: --company by name, else the demo company, else the first; created when there is none. */
async function companyFor(db: Kysely<Database>, args: ReplayArgs, now: number): Promise<string> {
  const companyRow = args.company
    ? await db.selectFrom('companies').select('id').where('name', '=', args.company).executeTakeFirst()
    : ((await db.selectFrom('companies').select('id').where('is_demo', '=', 1).executeTakeFirst()) ??
      (await db.selectFrom('companies').select('id').orderBy('created_at').executeTakeFirst()));
  if (companyRow) return companyRow.id;
  const companyId = crypto.randomUUID();
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
  return companyId;
}

/** An adapter holding the fields the replay found (Devices.xml meanings, or guesses from key names). */
async function createReplayAdapter(
  db: Kysely<Database>,
  companyId: string,
  file: string,
  fields: ReadonlyMap<string, FieldMeaning>,
  now: number,
): Promise<string> {
  const adapterId = crypto.randomUUID();
  await companyScope(db, companyId).transaction(async (tx) => {
    await tx
      .insertInto('adapters', {
        id: adapterId,
        name: `Replay of ${basename(file)}`,
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
  return adapterId;
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
  /**
   * Keys an existing machine's adapter does not map, derived for this replay with the meaning the Devices.xml
   * (or the key name) gives them; the adapter itself is left as it is (decision 0203).
   */
  unmappedKeys: string[];
}

export interface ReplayRunOptions {
  /** Wall time between writes while replaying (default 1000 ms), so a paced replay shows up live. */
  flushEveryMs?: number;
}

/** Replay a log into the database and summarize what was stored. */
/** A log up to this size is held in memory after the first pass instead of being read and parsed twice. */
const RECORD_MAX_BYTES = 64 * 1024 * 1024;

export async function runReplay(
  db: Kysely<Database>,
  args: ReplayArgs,
  now: () => number = Date.now,
  run: ReplayRunOptions = {},
): Promise<ReplayResult> {
  const devicesXml = args.devices ? readFileSync(args.devices, 'utf8') : undefined;
  const companyId = await companyFor(db, args, now());
  const name = args.machine ?? args.device ?? basename(args.file).replace(/\.[^.]*$/, '');
  const existing = await companyScope(db, companyId)
    .selectFrom('machines')
    .select(['id', 'adapter_id', 'cycle_source'])
    .where('name', '=', name)
    .executeTakeFirst();
  // An existing machine keeps its adapter: its field mapping is what live data is derived with, and the
  // adapter may be shared by other machines (decision 0203).
  const adapterFields = existing?.adapter_id
    ? ((await loadFieldMaps(db, [existing.id])).get(existing.id) ?? new Map<string, FieldMeaning>())
    : new Map<string, FieldMeaning>();
  // Without a device description the adapter's mapping tells the parser what each key is, as on live links.
  const keyKinds = devicesXml === undefined ? keyKindsFromFields(adapterFields) : undefined;
  // Which keys does the log use, and what do they mean? The adapter's mapping wins; what the replay finds fills
  // only the keys it does not map. A key means the same on every line (one device description, one guess), so
  // each is asked once, found or not.
  const found = new Map<string, FieldMeaning>();
  const fields = new Map(adapterFields);
  const seen = new Set<string>();
  const learn = (obs: readonly ReplayObservation[]) => {
    for (const o of obs) {
      if (o.kind !== 'value' || seen.has(o.key)) continue;
      seen.add(o.key);
      const meaning = o.dataItem
        ? { type: o.dataItem.type, subType: o.dataItem.subType }
        : devicesXml
          ? null
          : guessField(o.key);
      if (!meaning) continue;
      found.set(o.key, meaning);
      if (!adapterFields.has(o.key)) fields.set(o.key, meaning);
    }
  };
  // The cycle source is the machine's (or --cycles): then one pass does it all. Otherwise it depends on
  // whether the log counts parts, known only at its end: a first pass learns the keys, and at full speed
  // keeps what it read, so the log is still read and parsed once (a log too large to hold is read again).
  const knownSource = args.cycles ?? (existing?.adapter_id ? existing.cycle_source : undefined);
  let firstPass: ReplaySummary | null = null;
  let recorded: ReplayObservation[][] | null = null;
  if (knownSource === undefined) {
    const keep: ReplayObservation[][] | null =
      args.speed === 'max' && statSync(args.file).size <= RECORD_MAX_BYTES ? [] : null;
    firstPass = await replayShdr({
      source: args.file,
      speed: 'max',
      ...(devicesXml !== undefined ? { devicesXml } : { keyKinds }),
      ...(args.device ? { device: args.device } : {}),
      onObservations: (obs) => {
        learn(obs);
        keep?.push(obs);
      },
    });
    recorded = keep;
  }
  const cycleSource: 'part_count' | 'execution' =
    knownSource ?? ([...fields.values()].some((f) => f.type === 'PART_COUNT') ? 'part_count' : 'execution');
  // A machine without an adapter gets one with the keys the log uses: made now when they are known, else
  // once the single pass has seen them.
  const needsAdapter = !existing?.adapter_id;
  let machineId: string;
  if (existing) {
    machineId = existing.id;
    const set = {
      cycle_source: cycleSource,
      ...(needsAdapter && firstPass
        ? { adapter_id: await createReplayAdapter(db, companyId, args.file, found, now()) }
        : {}),
    };
    await db.updateTable('machines').set(set).where('id', '=', machineId).execute();
  } else {
    machineId = crypto.randomUUID();
    await companyScope(db, companyId)
      .insertInto('machines', {
        id: machineId,
        name,
        workcenter_type: 'machine',
        sort_order: 0,
        downtime_failure_delay: 5,
        autostart_behavior: 'disabled',
        adapter_id: firstPass ? await createReplayAdapter(db, companyId, args.file, found, now()) : null,
        decommissioned_at: null,
        cycle_source: cycleSource,
        created_at: now(),
      })
      .execute();
  }

  const pipeline = new MachinePipeline(companyId, machineId, fields, cycleSource, 'replay', now());
  // The parser's own observations, written as they are (no row object each).
  let buffer: ReplayObservation[] = [];
  // A recorded log has no link to lose: its gaps keep the last state (METRICS.md §1), so the replay
  // connects once, at the log's first line, and never drops.
  let started = false;
  const write = async () => {
    const t = now();
    const taken = pipeline.take(t);
    // Swapped before the write: lines replayed meanwhile go to the next one.
    const rows = buffer;
    buffer = [];
    await writeBatch(db, {
      observations: [],
      machineObservations: [{ companyId, machineId, observations: rows }],
      derived: taken ? [{ companyId, machineId, ...taken }] : [],
      live: [pipeline.liveRow(t, taken?.result)],
      stats: [],
    });
    pipeline.stored(t);
  };
  // Writes run one at a time, in order: by size from the replay, and by wall time from the timer below.
  let writing: Promise<void> = Promise.resolve();
  let failed: Error | null = null;
  const flush = () => {
    writing = writing.then(write).catch((err: Error) => {
      failed ??= err;
    });
    return writing;
  };
  // At recorded speed lines trickle in: write what came every second, so the replay shows up live.
  const timer = setInterval(() => {
    if (buffer.length > 0) void flush();
  }, run.flushEveryMs ?? 1000);
  /** One line's observations into the buffer and the engine; a promise only when it must wait for a write. */
  const consume = (obs: readonly ReplayObservation[]): Promise<void> | undefined => {
    const values = obs.some((o) => o.kind === 'asset') ? obs.filter((o) => o.kind !== 'asset') : obs;
    if (values.length === 0) return undefined;
    if (!started) {
      let first = Infinity;
      for (const o of values) if (o.ts < first) first = o.ts;
      pipeline.setConnection('CONNECTED', first);
      started = true;
    }
    pipeline.pushRaw(values, now());
    for (const o of values) buffer.push(o);
    if (failed) throw failed;
    if (buffer.length < 5000) return undefined;
    return flush().then(() => {
      if (failed) throw failed;
    });
  };
  let summary: ReplaySummary;
  try {
    if (recorded && firstPass) {
      for (const obs of recorded) {
        const pending = consume(obs);
        if (pending) await pending;
      }
      summary = firstPass;
    } else {
      const single = firstPass === null;
      summary = await replayShdr({
        source: args.file,
        speed: args.speed,
        ...(devicesXml !== undefined ? { devicesXml } : { keyKinds }),
        ...(args.device ? { device: args.device } : {}),
        onObservations: (obs) => {
          if (single) learn(obs);
          return consume(obs);
        },
      });
    }
  } finally {
    clearInterval(timer);
  }
  await flush();
  if (failed) throw failed;
  if (needsAdapter && firstPass === null) {
    const adapterId = await createReplayAdapter(db, companyId, args.file, found, now());
    await db.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
  }
  const unmappedKeys = existing?.adapter_id ? [...found.keys()].filter((k) => !adapterFields.has(k)) : [];

  // The summary is read back from storage through the same engine as the reports.
  const from = summary.from;
  const to = summary.to;
  let stateMs: ReplayResult['stateMs'] = { ACTIVE: 0, INACTIVE: 0, SETUP: 0, FAULT: 0, UNAVAILABLE: 0 };
  let cycles = 0;
  let parts = 0;
  if (from != null && to != null) {
    const source = await loadRollupSource(
      { db, companyId },
      machineId,
      { start: from, end: to },
      { now: to },
    );
    stateMs = stateDurations(source.intervals, epochMs(from), epochMs(to));
    const produced = source.cycles ?? [];
    cycles = produced.length;
    parts = produced.reduce((sum, c) => sum + c.parts, 0);
  }
  return {
    lines: summary.lines,
    observations: summary.observations,
    // Rejected lines, as the sources' counters (lines dropped whole included).
    rejected: summary.rejectedLines,
    from,
    to,
    stateMs,
    cycles,
    parts,
    machineId,
    unmappedKeys,
  };
}

async function main() {
  const args = parseReplayArgs(process.argv.slice(2));
  if ('error' in args) {
    console.error(args.error);
    process.exit(2);
  }
  const database = openDb(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    const result = await runReplay(database.db, args);
    const { machineId: _m, unmappedKeys, ...json } = result;
    if (unmappedKeys.length > 0)
      console.error(
        `the machine's adapter does not map ${unmappedKeys.join(', ')}: derived for this replay only (add them to the adapter to keep them)`,
      );
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
