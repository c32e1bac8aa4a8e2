import type { ConditionLevel } from '../derive/observations';

// What services/ingest hands the API (ARCHITECTURE.md "Ingest contract"): SHDR lines as the parser reads
// them, gateway pushes and the adapter import. Types only: ingest implements the rules, the API calls them
// through its composition root, and neither imports the other.

// ---------------------------------------------------------------------------------------------------------
// SHDR lines (services/ingest sources/shdr names them Observation, ConditionValue, …)

/** An SHDR condition: `level|nativeCode|nativeSeverity|qualifier|message`. */
export interface ShdrConditionValue {
  level: ConditionLevel;
  nativeCode: string;
  nativeSeverity: string;
  qualifier: string;
  message: string;
}

/** One key/value of an SHDR line as received, before adapter mapping. */
export interface ShdrObservation {
  /** epoch ms */
  ts: number;
  key: string;
  /** null means UNAVAILABLE (in any letter case) */
  value: string | null;
  kind: 'value' | 'condition' | 'message' | 'asset';
  condition?: ShdrConditionValue;
  /** MESSAGE items carry a native code next to the text */
  nativeCode?: string;
  /** TIME_SERIES items: `value` holds the space-separated samples */
  timeSeries?: { count: number; rate: number | null };
}

export type AssetOp = 'add' | 'update' | 'remove' | 'remove_all';

export interface AssetRecord {
  op: AssetOp;
  /** asset id, or the asset type for `remove_all` */
  assetId: string;
  assetType: string;
  /** XML document for `add`, the `key|value…` rest for `update`, '' otherwise */
  body: string;
}

export interface ShdrCommand {
  type: 'command';
  /** e.g. PONG, adapterVersion, shdrVersion, PING */
  name: string;
  value: string;
  raw: string;
}

export interface ShdrData {
  type: 'data';
  ts: number;
  observations: ShdrObservation[];
  /** bad tokens or pairs on this line (a line holding only `2017` counts 1) */
  rejected: number;
  assets?: AssetRecord[];
  /** The line's time was outside the window of decision 0980: its pairs were refused (counted in rejected). */
  outOfWindow?: true;
}

export type ShdrLine = ShdrCommand | ShdrData;

export type KeyKind = 'condition' | 'message' | 'sample' | 'event' | 'data_set' | 'table' | 'time_series';

/** How the parser learns what a key is (from a Devices.xml or an adapter's field mapping). */
export type KeyKinds = ReadonlyMap<string, KeyKind> | ((key: string) => KeyKind | undefined);

// ---------------------------------------------------------------------------------------------------------
// Gateway pushes (reports-admin §4)

export interface PushRecord {
  seq: number;
  machineRef: string;
  line: string;
}

export interface PushBatch {
  gatewayId: string;
  records: PushRecord[];
  /** records still waiting in the gateway's buffer after this batch (reports-admin §3 bufferedRecords) */
  bufferedRecords?: number | undefined;
}

export interface PushProblem {
  /** where, e.g. `records.3.seq` (empty for the body itself) */
  path: string;
  message: string;
}

export type PushValidation = { ok: true; batch: PushBatch } | { ok: false; problems: PushProblem[] };

export interface AcceptedRecord extends PushRecord {
  parsed: ShdrLine;
}

export interface PushDecision {
  /** records to store, in sequence order, each once */
  accepted: AcceptedRecord[];
  /** the highest stored sequence after storing `accepted`: what the answer acknowledges */
  ack: number | null;
  /** records at or below the stored sequence, or repeated inside the batch */
  duplicates: number;
  /** repeats inside the batch whose line differs from the first record of that sequence (a gateway bug) */
  conflicts: number;
  /** the batch was not in sequence order (it was sorted) */
  reordered: boolean;
  /** holes in the sequence (e.g. stored 10, next 13): counted, not waited for */
  skipped: number;
  observations: number;
  /** bad tokens in the accepted lines (see ShdrData.rejected); the record is stored all the same */
  rejected: number;
  /** records whose line was dated outside the window of decision 0980: refused (not stored), still acknowledged */
  timeRefused: number;
  /**
   * Sequences below `ack` never received, as inclusive [from, to] ranges, lowest first (decision 0981): a late
   * record in one is stored once and leaves it; a record below `ack` outside them is a repeat.
   */
  gaps: SequenceGap[];
}

/** An inclusive range of gateway sequences not received yet. */
export type SequenceGap = [from: number, to: number];

// ---------------------------------------------------------------------------------------------------------
// Device descriptions and the adapter import (reports-admin §2, §3)

export interface DataItem {
  id: string;
  name: string | null;
  type: string;
  subType: string | null;
  /** SAMPLE, EVENT or CONDITION */
  category: string;
  /** VALUE (default), DATA_SET, TABLE, TIME_SERIES, DISCRETE */
  representation: string | null;
  units: string | null;
  /** element name of the component owning the item: Device, Controller, Path, Rotary… */
  componentType: string;
  componentName: string | null;
  componentId: string | null;
  deviceName: string;
  deviceUuid: string | null;
  /** `<Source>` text: the adapter key when it differs from id and name */
  source: string | null;
}

export interface Device {
  id: string | null;
  name: string;
  uuid: string | null;
  dataItems: DataItem[];
}

/** An adapter field (reports-admin §3): how one SHDR key maps to an MTConnect data item. */
export interface AdapterField {
  /** the SHDR key */
  name: string;
  dataItemType: string;
  dataItemSubtype: string | null;
  componentName: string;
  componentType: string;
}

/** reports-admin §3 Adapter with its fields, as the API keeps it and GET /api/adapters answers it. */
export interface Adapter {
  id: string;
  name: string;
  notes: string | null;
  class: string;
  config: unknown;
  family: { id: string } | null;
  autogenerated: boolean;
  incomplete: boolean;
  fields: AdapterField[];
  createdAt: number;
}

export interface ExistingAdapter {
  id: string;
  name: string;
  fields: readonly AdapterField[];
}

export interface SampleFields {
  /** one field per distinct key the sample sends, in order of first appearance */
  fields: AdapterField[];
  /** keys the device description does not know (no field can be proposed for them) */
  unresolvedKeys: string[];
  lines: number;
  /** bad tokens in the sample (see ShdrData.rejected) */
  rejected: number;
}

export type AdapterMatch =
  | { outcome: 'exact'; adapter: ExistingAdapter; actions: ['select'] }
  | {
      outcome: 'partial';
      adapter: ExistingAdapter;
      /** fields the sample uses that the adapter lacks (or has with another meaning) */
      missing: AdapterField[];
      /** adapter fields the sample does not use (or uses with another meaning) */
      extra: AdapterField[];
      matched: number;
      actions: ['select', 'clone'];
    }
  | { outcome: 'none'; proposed: AdapterField[]; actions: ['create'] };

export type AdapterImport = AdapterMatch &
  SampleFields & {
    /** reports-admin §7 names: sample items the chosen adapter does not map (unresolved keys included) */
    unmatchedItems: string[];
    /** reports-admin §7 names: adapter fields the sample does not use */
    extraneousItems: string[];
  };
