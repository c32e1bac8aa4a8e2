// MQTT topics and payloads → observations (docs/decisions/0200-mqtt-topics.md). Pure: the subscriber in
// mqtt.ts does the IO. Nothing here throws on input; every bad item is counted, the good ones are kept.
import { z } from 'zod';
import { timeProblem } from '@takt/domain';
import type { ConditionLevel, KeyKinds, Observation } from '../shdr/shdr';
import {
  boundToWindow,
  conditionReading,
  parseShdrLine,
  parseTimestamp,
  splitShdrStream,
} from '../shdr/shdr';

export type MqttFormat = 'shdr' | 'json' | 'status';

export interface MqttTopic {
  companyRef: string;
  machineRef: string;
  format: MqttFormat;
}

export type MqttMessage =
  | {
      ok: true;
      topic: MqttTopic;
      observations: Observation[];
      /** bad lines, pairs, values or records inside the payload */
      rejected: number;
      /** status topic: the edge says it is online (true) or went away (false, the broker's will) */
      online?: boolean;
    }
  | { ok: false; reason: string; rejected: number };

/** Bigger payloads are refused whole: a runaway publisher must not exhaust the worker. */
export const MAX_MQTT_PAYLOAD_BYTES = 1 << 20;
export const DEFAULT_MQTT_PREFIX = 'takt';

const REF = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const FORMATS: ReadonlySet<string> = new Set(['shdr', 'json', 'status']);

/** `<prefix>/<companyRef>/<machineRef>/<format>` → its parts, or null for any other topic. */
export function parseMqttTopic(topic: string, prefix = DEFAULT_MQTT_PREFIX): MqttTopic | null {
  const parts = topic.split('/');
  const base = prefix.split('/');
  if (parts.length !== base.length + 3 || base.some((p, i) => parts[i] !== p)) return null;
  const [companyRef = '', machineRef = '', format = ''] = parts.slice(base.length);
  if (!REF.test(companyRef) || !REF.test(machineRef) || !FORMATS.has(format)) return null;
  return { companyRef, machineRef, format: format as MqttFormat };
}

/** Reads one message. `receivedAt` stands in for a missing or unreadable timestamp. */
export function parseMqttMessage(
  topicText: string,
  payload: Uint8Array | string,
  receivedAt: number,
  options: { prefix?: string; keyKinds?: KeyKinds } = {},
): MqttMessage {
  const topic = parseMqttTopic(topicText, options.prefix);
  if (!topic)
    return { ok: false, reason: `unknown topic ${JSON.stringify(topicText.slice(0, 200))}`, rejected: 1 };
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
  if (size > MAX_MQTT_PAYLOAD_BYTES) {
    return { ok: false, reason: `payload of ${size} bytes exceeds ${MAX_MQTT_PAYLOAD_BYTES}`, rejected: 1 };
  }
  const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  // An empty payload is how MQTT clears a retained message: nothing to read, nothing wrong.
  if (text.trim() === '') return { ok: true, topic, observations: [], rejected: 0 };
  if (topic.format === 'status') return parseStatus(topic, text);
  const read =
    topic.format === 'shdr' ? readShdr(text, receivedAt, options.keyKinds) : readJson(text, receivedAt);
  return { ok: true, topic, ...read };
}

function parseStatus(topic: MqttTopic, text: string): MqttMessage {
  const word = text.trim().toUpperCase();
  if (word === 'ONLINE') return { ok: true, topic, observations: [], rejected: 0, online: true };
  if (word === 'OFFLINE') return { ok: true, topic, observations: [], rejected: 0, online: false };
  return { ok: false, reason: 'status payload must be ONLINE or OFFLINE', rejected: 1 };
}

function readShdr(text: string, receivedAt: number, kinds: KeyKinds | undefined) {
  const splitter = splitShdrStream({ maxLineLength: MAX_MQTT_PAYLOAD_BYTES });
  const observations: Observation[] = [];
  let rejected = 0;
  for (const raw of [...splitter.push(text), ...splitter.end()]) {
    const line = boundToWindow(parseShdrLine(raw, receivedAt, kinds), receivedAt);
    if (line.type !== 'data') continue; // adapter commands (`* PONG`) carry no data over MQTT
    observations.push(...line.observations);
    rejected += line.rejected;
  }
  return { observations, rejected: rejected + splitter.dropped };
}

// The JSON form. Each record is checked field by field rather than all-or-nothing, so one bad value
// does not cost the good ones next to it (ARCHITECTURE.md, Ingest contract).
const scalar = z.union([z.string().max(65_536), z.number().finite(), z.boolean(), z.null()]);
const key = z.string().min(1).max(256);
const condition = z.object({
  key,
  level: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['NORMAL', 'WARNING', 'FAULT', 'UNAVAILABLE'])),
  nativeCode: z.string().max(256).optional(),
  nativeSeverity: z.string().max(256).optional(),
  qualifier: z.string().max(256).optional(),
  message: z.string().max(65_536).optional(),
});
const message = z.object({ key, nativeCode: z.string().max(256).optional(), text: scalar });
const MAX_RECORDS = 10_000;

function readJson(text: string, receivedAt: number) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { observations: [], rejected: 1 };
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  const observations: Observation[] = [];
  let rejected = Math.max(0, records.length - MAX_RECORDS);
  for (const record of records.slice(0, MAX_RECORDS)) {
    const read = readRecord(record, receivedAt);
    observations.push(...read.observations);
    rejected += read.rejected;
  }
  return { observations, rejected };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readRecord(record: unknown, receivedAt: number): { observations: Observation[]; rejected: number } {
  if (!isObject(record)) return { observations: [], rejected: 1 };
  const ts = recordTime(record.ts, receivedAt);
  if (ts === null) return { observations: [], rejected: 1 };
  const observations: Observation[] = [];
  let rejected = 0;
  let fields = 0;

  if (record.values !== undefined) {
    fields++;
    if (!isObject(record.values)) rejected++;
    else
      for (const [k, raw] of Object.entries(record.values)) {
        const value = scalar.safeParse(raw);
        if (!key.safeParse(k).success || !value.success) rejected++;
        else observations.push({ ts, key: k, value: valueText(value.data), kind: 'value' });
      }
  }
  for (const [field, schema, build] of [
    ['conditions', condition, conditionObservation],
    ['messages', message, messageObservation],
  ] as const) {
    const list = record[field];
    if (list === undefined) continue;
    fields++;
    if (!Array.isArray(list)) {
      rejected++;
      continue;
    }
    for (const item of list) {
      const checked = schema.safeParse(item);
      if (checked.success) observations.push(build(checked.data as never, ts));
      else rejected++;
    }
  }
  // `{}` or `{ "ts": … }` alone says nothing: a sender bug worth counting.
  if (fields === 0) rejected++;
  return { observations, rejected };
}

/** The record's time, or null when it is unreadable or outside the window of decision 0980 (the record is refused). */
function recordTime(ts: unknown, receivedAt: number): number | null {
  if (ts === undefined || ts === null) return receivedAt;
  const at = typeof ts === 'number' ? ts : typeof ts === 'string' ? parseTimestamp(ts) : null;
  return at !== null && timeProblem('ts', at, receivedAt) === null ? at : null;
}

function valueText(value: string | number | boolean | null): string | null {
  if (value === null) return null;
  const text = String(value);
  return text.toUpperCase() === 'UNAVAILABLE' ? null : text;
}

function conditionObservation(c: z.infer<typeof condition>, ts: number): Observation {
  const level = c.level as ConditionLevel;
  return { ts, key: c.key, ...conditionReading(level, c) };
}

function messageObservation(m: z.infer<typeof message>, ts: number): Observation {
  return { ts, key: m.key, value: valueText(m.text), kind: 'message', nativeCode: m.nativeCode ?? '' };
}
