// An independent reading of a recorded SHDR log: the state seconds a person would count with the log and its
// device description open side by side (decision 0111). It is a test oracle, written from the cppagent SHDR
// rules and METRICS.md §1 only, and imports nothing of the product (packages/*, services/*), so that the
// product's replay can be checked against it.

export type OracleState = 'ACTIVE' | 'INACTIVE' | 'SETUP' | 'FAULT' | 'UNAVAILABLE';

export interface OracleItem {
  category: string;
  type: string;
}

/** What each key of a log means: a DataItem's id, name and Source text all resolve to it. */
export type OracleDevice = ReadonlyMap<string, OracleItem>;

export interface OracleReading {
  /** data lines read (a valid timestamp and at least one key/value pair) */
  dataLines: number;
  /** lines skipped: no parsable timestamp (the Hurco `2017` fragments), or no pair after it */
  skippedLines: number;
  /** earliest and latest timestamp of the data lines, epoch ms; null for a log without data */
  from: number | null;
  to: number | null;
  stateMs: Record<OracleState, number>;
  /**
   * METRICS.md §1: the machine's monitored life in the log starts at its first observation, so its T_all is
   * [from, to]; its No data is the UNAVAILABLE time in it (a log has no operator reasons).
   */
  monitoredMs: number;
  noDataMs: number;
  /** the state timeline, merged: each entry holds from its start to the next one's (the last to `to`) */
  timeline: Array<{ start: number; state: OracleState }>;
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
};

/**
 * The DataItems of one device of a Devices.xml (matched by name, uuid or id), keyed by id, name and the text
 * of their <Source>; the first key wins when two items share one.
 */
export function readDevice(xml: string, device: string): OracleDevice {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '');
  const devices = text.matchAll(/<Device\b([^>]*)>([\s\S]*?)<\/Device>/g);
  let body: string | undefined;
  for (const d of devices) {
    const head = d[1]!;
    if ([attr(head, 'name'), attr(head, 'uuid'), attr(head, 'id')].includes(device)) {
      body = d[2]!;
      break;
    }
  }
  if (body === undefined) throw new Error(`no device ${device} in the description`);
  const items = new Map<string, OracleItem>();
  for (const m of body.matchAll(/<DataItem\b([^>]*?)(?:\/>|>([\s\S]*?)<\/DataItem>)/g)) {
    const head = m[1]!;
    const item = { category: attr(head, 'category') ?? '', type: attr(head, 'type') ?? '' };
    const source = /<Source\b[^>]*>([^<]*)<\/Source>/.exec(m[2] ?? '')?.[1]?.trim();
    for (const key of [attr(head, 'id'), attr(head, 'name'), source])
      if (key && !items.has(key)) items.set(key, item);
  }
  return items;
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±hh:mm]` to epoch ms, the fraction cut (not rounded) to milliseconds. */
export function readTimestamp(token: string): number | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/.exec(token);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isFinite(t) ? t : null;
}

/** Tokens split on `|` (a `\|` inside a value is not a separator) and trimmed. */
function tokens(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && line[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (c === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

type Event =
  | { ts: number; kind: 'execution'; key: string; value: string | null }
  | { ts: number; kind: 'availability'; key: string; value: string | null }
  | { ts: number; kind: 'condition'; key: string; level: string; code: string }
  /** A controller mode or part count value: the device is reporting (METRICS.md §1, decision 1000). */
  | { ts: number; kind: 'reporting' };

const isUnavailable = (v: string) => v.toUpperCase() === 'UNAVAILABLE';

/**
 * Reads a recorded log: every data line's pairs are taken by the device description (a CONDITION takes
 * level|nativeCode|nativeSeverity|qualifier|message, a MESSAGE nativeCode|text, anything else one value);
 * `*` command lines and `@…@` asset records (multiline bodies included) are not data. The execution,
 * availability and condition observations are then put in timestamp order (file order on ties) and held until
 * they change, and the state is summed over [first timestamp, last timestamp] by METRICS.md §1. The newest
 * evidence wins: an availability UNAVAILABLE counts until the device reports at a later instant (an execution
 * value, a controller mode, a part count: decision 1000), and again when the source sends UNAVAILABLE again.
 */
export function readShdrLog(text: string, device: OracleDevice): OracleReading {
  const events: Event[] = [];
  let from: number | null = null;
  let to: number | null = null;
  let dataLines = 0;
  let skippedLines = 0;
  let multilineEnd: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (multilineEnd !== null) {
      if (line.trim() === multilineEnd) multilineEnd = null;
      continue;
    }
    if (line.trim() === '' || line.startsWith('*')) continue;
    const t = tokens(line);
    if (t.length > 1 && t[1]!.startsWith('@')) {
      // An asset record: not a data item; its body may run over several lines.
      const tag = t.find((x) => x.startsWith('--multiline--'));
      if (tag) multilineEnd = tag;
      continue;
    }
    const ts = readTimestamp(t[0]!);
    if (ts === null || t.length < 3) {
      skippedLines++;
      continue;
    }
    dataLines++;
    from = from === null ? ts : Math.min(from, ts);
    to = to === null ? ts : Math.max(to, ts);
    for (let i = 1; i < t.length;) {
      const key = t[i]!;
      const item = device.get(key);
      if (item?.category === 'CONDITION') {
        const level = (t[i + 1] ?? '').toUpperCase();
        events.push({ ts, kind: 'condition', key, level, code: t[i + 2] ?? '' });
        i += 6;
        continue;
      }
      if (item?.type === 'MESSAGE') {
        i += 3;
        continue;
      }
      const value = t[i + 1] ?? '';
      if (item?.type === 'EXECUTION')
        events.push({ ts, kind: 'execution', key, value: isUnavailable(value) ? null : value.toUpperCase() });
      else if (item?.type === 'CONTROLLER_MODE' && value !== '' && !isUnavailable(value))
        events.push({ ts, kind: 'reporting' });
      else if (item?.type === 'PART_COUNT' && value !== '' && Number.isFinite(Number(value)))
        events.push({ ts, kind: 'reporting' });
      else if (item?.type === 'AVAILABILITY')
        events.push({
          ts,
          kind: 'availability',
          key,
          value: isUnavailable(value) ? null : value.toUpperCase(),
        });
      i += 2;
    }
  }

  const stateMs: Record<OracleState, number> = { ACTIVE: 0, INACTIVE: 0, SETUP: 0, FAULT: 0, UNAVAILABLE: 0 };
  const timeline: OracleReading['timeline'] = [];
  if (from === null || to === null)
    return { dataLines, skippedLines, from, to, stateMs, monitoredMs: 0, noDataMs: 0, timeline };

  // Stable: observations at one instant keep their order in the file.
  const ordered = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.ts - b.e.ts || a.i - b.i);
  const execution = new Map<string, string | null>();
  /** Each availability item's last value (null: UNAVAILABLE) and the instant it was sent. */
  const availability = new Map<string, { value: string | null; ts: number }>();
  /** The latest instant the device reported: an execution value, a controller mode or a part count. */
  let reportedAt = -Infinity;
  const conditions = new Map<string, Map<string, string>>();
  const state = (): OracleState => {
    // An UNAVAILABLE counts until the device reports at a later instant (METRICS.md §1, newest evidence).
    for (const a of availability.values()) if (a.value === null && reportedAt <= a.ts) return 'UNAVAILABLE';
    const values = [...execution.values()].filter((v): v is string => v !== null);
    if (values.includes('ACTIVE')) return 'ACTIVE';
    // METRICS.md §1: FAULT is "reporting an active FAULT condition and not in cycle"; a machine that reports
    // a fault while its execution is unknown is reporting, and not known to be in cycle.
    for (const active of conditions.values()) if ([...active.values()].includes('FAULT')) return 'FAULT';
    if (values.length === 0) return 'UNAVAILABLE';
    return 'INACTIVE';
  };
  const apply = (e: Event) => {
    if (e.kind === 'reporting') reportedAt = e.ts;
    else if (e.kind === 'execution') {
      execution.set(e.key, e.value);
      if (e.value !== null && e.value !== '') reportedAt = e.ts;
    } else if (e.kind === 'availability') availability.set(e.key, { value: e.value, ts: e.ts });
    else {
      const active = conditions.get(e.key) ?? new Map<string, string>();
      conditions.set(e.key, active);
      if (e.level === 'NORMAL') {
        if (e.code) active.delete(e.code);
        else active.clear();
      } else if (e.level === 'WARNING' || e.level === 'FAULT') {
        if (!e.code) active.clear();
        active.set(e.code, e.level);
      } else active.clear(); // UNAVAILABLE (or unreadable): nothing known to be active
    }
  };
  let at = from;
  let current = state();
  timeline.push({ start: at, state: current });
  for (let k = 0; k < ordered.length;) {
    const ts = ordered[k]!.e.ts;
    // Everything observed at one instant takes effect together.
    while (k < ordered.length && ordered[k]!.e.ts === ts) apply(ordered[k++]!.e);
    const next = state();
    if (next === current) continue;
    stateMs[current] += ts - at;
    at = ts;
    current = next;
    if (timeline[timeline.length - 1]!.start === ts) timeline.pop();
    if (timeline.length > 0 && timeline[timeline.length - 1]!.state === next) continue;
    timeline.push({ start: ts, state: next });
  }
  stateMs[current] += to - at;
  return {
    dataLines,
    skippedLines,
    from,
    to,
    stateMs,
    monitoredMs: to - from,
    noDataMs: stateMs.UNAVAILABLE,
    timeline,
  };
}
