// Replay of a recorded SHDR log (the command of ARCHITECTURE.md "Conventions"): lines come
// through the same splitter and parser as a live adapter link, at `max` speed or paced by their timestamps
// (`realtime`, or a factor: 10 = ten times faster). The CLI and the database side live elsewhere; this is
// the core, with the clock and sleep injectable so pacing is testable.
import { createReadStream } from 'node:fs';
import type { DataItem, KeyResolver } from '../sources/devices/devices';
import { keyKindsFrom, parseDevicesXml, resolverForDevice } from '../sources/devices/devices';
import type { KeyKinds, Observation, ShdrData } from '../sources/shdr/shdr';
import { parseShdrLine, splitShdrStream } from '../sources/shdr/shdr';

export type ReplaySpeed = 'max' | 'realtime' | number;

/** `max`, `realtime` or a positive factor (`10`, `0.5`); null for anything else. */
export function parseReplaySpeed(text: string): ReplaySpeed | null {
  const t = text.trim().toLowerCase();
  if (t === 'max' || t === 'realtime') return t;
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const factor = Number(t);
  return factor > 0 && Number.isFinite(factor) ? factor : null;
}

export interface ReplayObservation extends Observation {
  /** the data item the key resolved to, when a device description was given */
  dataItem?: DataItem;
}

export interface ReplayContext {
  /** 1-based number of the record in the file (a multiline block counts as one) */
  lineNumber: number;
  line: ShdrData;
}

export interface ReplayOptions {
  /** a file path, or any stream of chunks (tests, stdin) */
  source: string | AsyncIterable<Buffer | string>;
  speed?: ReplaySpeed;
  /** Devices.xml text: keys resolve through it (id, then name, then Source) and conditions parse by kind */
  devicesXml?: string;
  /** the device in devicesXml the log belongs to (by name, uuid or id); all devices when omitted */
  device?: string;
  /** without devicesXml: what each key is (the machine's adapter field mapping, keyKindsFromFields) */
  keyKinds?: KeyKinds;
  /** one call per data line with observations; awaited, so a slow consumer slows the replay */
  onObservations?: (observations: ReplayObservation[], context: ReplayContext) => void | Promise<void>;
  /**
   * Pacing never waits longer than this for one step (default: no limit). A log with a long pause
   * replays faithfully by default; tools that only want the shape can cap it.
   */
  maxGapMs?: number;
  /**
   * A step back in log time this large or larger starts a new run (default 5000 ms); smaller steps back are
   * jitter between the adapter's threads (hundreds in the Okuma file) and are sent at once without
   * disturbing the pacing.
   */
  rewindMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** wall clock for pacing, and the receive time of lines without a timestamp before the first one */
  now?: () => number;
}

export interface ReplaySummary {
  /** records read (data and command lines; a multiline block counts as one) */
  lines: number;
  commands: number;
  /** observations of data items (asset records, which are not stored as observations, aside) */
  observations: number;
  /** asset commands (`@ASSET@` …) read */
  assets: number;
  /** bad tokens, lines the splitter dropped included */
  rejected: number;
  /** lines with at least one rejected token, and lines the splitter dropped */
  rejectedLines: number;
  /** epoch ms of the earliest and latest observation (assets aside), null when there was none */
  from: number | null;
  to: number | null;
  /** times the log's clock went back by rewindMs or more (concatenated runs) */
  backJumps: number;
  /** lines a little behind the latest log time (jitter) */
  outOfOrderLines: number;
  /** keys the device description did not resolve (only when one was given) */
  unresolvedKeys: string[];
  /** total time the replay waited for pacing */
  sleptMs: number;
}

const DEFAULT_REWIND_MS = 5_000;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function* chunksOf(source: ReplayOptions['source']): AsyncIterable<Buffer | string> {
  if (typeof source === 'string') yield* createReadStream(source) as AsyncIterable<Buffer>;
  else yield* source;
}

/**
 * Pacing follows the log's own timestamps. Each step waits (Δ log time) / factor, measured against the
 * wall clock from a moving anchor, so slow consumers do not make the replay drift. When the log's clock
 * jumps back by rewindMs or more (the Okuma file is several runs concatenated) the anchor is reset at that
 * line: no stall waiting for the past to come back, no burst to catch up. Smaller steps back (jitter) go
 * out at once and leave the anchor alone, so they do not add up to drift.
 */
export async function replayShdr(options: ReplayOptions): Promise<ReplaySummary> {
  const speed = options.speed ?? 'max';
  const factor = speed === 'max' ? null : speed === 'realtime' ? 1 : speed;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const maxGapMs = options.maxGapMs ?? Number.POSITIVE_INFINITY;
  const rewindMs = options.rewindMs ?? DEFAULT_REWIND_MS;

  let resolve: KeyResolver | undefined;
  if (options.devicesXml !== undefined) {
    resolve = resolverForDevice(parseDevicesXml(options.devicesXml), options.device);
  }
  const kinds = resolve ? keyKindsFrom(resolve) : options.keyKinds;
  const unresolved = new Set<string>();

  const summary: ReplaySummary = {
    lines: 0,
    commands: 0,
    observations: 0,
    assets: 0,
    rejected: 0,
    rejectedLines: 0,
    from: null,
    to: null,
    backJumps: 0,
    outOfOrderLines: 0,
    unresolvedKeys: [],
    sleptMs: 0,
  };
  // Pacing anchor: the log time and wall time the current run of waits is measured from.
  let anchor: { logTs: number; wallTs: number } | null = null;
  // The latest log time of the current run: lines a little behind it are jitter, not a new run.
  let highWater: number | null = null;

  // Synchronous unless it waits: at full speed a line costs no promise (a replay runs at 200k+ lines/s).
  function pace(logTs: number): Promise<void> | undefined {
    if (highWater !== null && logTs < highWater) {
      if (highWater - logTs < rewindMs) {
        summary.outOfOrderLines++; // already due: goes out at once, the anchor stays
        return;
      }
      // A new run (the Okuma file's concatenated captures): start pacing afresh from this line.
      summary.backJumps++;
      highWater = logTs;
      anchor = factor === null ? null : { logTs, wallTs: now() };
      return;
    }
    const previous = highWater;
    highWater = logTs;
    if (factor === null) return;
    if (anchor === null || previous === null) {
      anchor = { logTs, wallTs: now() };
      return;
    }
    if ((logTs - previous) / factor > maxGapMs) {
      // A capped pause: this line is due maxGapMs after the previous one, and pacing goes on from here.
      const previousDue = anchor.wallTs + (previous - anchor.logTs) / factor;
      anchor = { logTs, wallTs: previousDue + maxGapMs };
    }
    const wait = anchor.wallTs + (logTs - anchor.logTs) / factor - now();
    if (wait > 0) {
      summary.sleptMs += wait;
      return sleep(wait);
    }
    return undefined;
  }

  /** Counts a line's observations into the summary and hands them to the consumer. */
  function deliver(line: ShdrData): Promise<void> | void {
    const observations: ReplayObservation[] = resolve
      ? line.observations.map((o) => {
          if (o.kind === 'asset') return o;
          const dataItem = resolve(o.key);
          if (!dataItem) {
            unresolved.add(o.key);
            return o;
          }
          return { ...o, dataItem };
        })
      : line.observations;
    for (const o of observations) {
      if (o.kind === 'asset') {
        summary.assets++;
        continue;
      }
      summary.observations++;
      if (summary.from === null || o.ts < summary.from) summary.from = o.ts;
      if (summary.to === null || o.ts > summary.to) summary.to = o.ts;
    }
    return options.onObservations?.(observations, { lineNumber: summary.lines, line });
  }

  /**
   * One line: a promise only when it has to wait (pacing, or a consumer that is writing). No closure is made
   * per line (under tsx each one is also named at run time).
   */
  function take(raw: string): Promise<void> | void {
    summary.lines++;
    // A line without a timestamp was received "now" in the log's terms: right after the previous line.
    const receivedAt = highWater ?? now();
    const line = parseShdrLine(raw, receivedAt, kinds);
    if (line.type === 'command') {
      summary.commands++;
      return;
    }
    summary.rejected += line.rejected;
    if (line.rejected > 0) summary.rejectedLines++;
    if (line.observations.length === 0) return;
    // Asset records carry the asset's own change time (hours off in the Okuma file): not stream time.
    let isAsset = true;
    for (const o of line.observations) if (o.kind !== 'asset') isAsset = false;
    const paced = isAsset ? undefined : pace(line.ts);
    return paced ? paced.then(() => deliver(line)) : deliver(line);
  }

  const splitter = splitShdrStream();
  for await (const chunk of chunksOf(options.source)) {
    for (const raw of splitter.push(chunk)) {
      const pending = take(raw);
      if (pending) await pending;
    }
  }
  for (const raw of splitter.end()) {
    const pending = take(raw);
    if (pending) await pending;
  }
  summary.rejected += splitter.dropped;
  summary.rejectedLines += splitter.dropped;
  summary.unresolvedKeys = [...unresolved];
  return summary;
}
