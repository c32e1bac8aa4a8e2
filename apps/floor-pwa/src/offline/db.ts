import type { LiveMachine } from '@takt/ui';
import { Dexie } from 'dexie';
import type { EntityTable } from 'dexie';
import type { OutboxEntry, RejectedEntry } from './commands';
import type { Overlay } from './optimistic';

// The tablet's IndexedDB store (ARCHITECTURE.md "Offline sync contract"): reference data and live card data
// pulled while online, the outbox, the local changes made with it, and the commands the server refused.

/** A small keyed document: reference data per machine, the clock offset, persisted flow snapshots. */
export interface KvRow {
  key: string;
  value: unknown;
  /** Client time it was written. */
  savedAt: number;
}

/** A job row cached for the Start Job overlay's offline search. */
export interface CachedJob {
  /** `${machineId}|${job.id}` */
  key: string;
  machineId: string;
  id: string;
  name: string;
  /** Lower-cased name: the search is case-insensitive (live-operations §5). */
  search: string;
  job: Record<string, unknown>;
}

/** The live tile of a machine (GET /api/dashboard element or the live channel's payload). */
export interface TileRow {
  id: string;
  tile: LiveMachine;
  /** Server time of the data. */
  at: number;
}

export class FloorDb extends Dexie {
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  overlays!: EntityTable<Overlay, 'commandId'>;
  rejected!: EntityTable<RejectedEntry, 'id'>;
  tiles!: EntityTable<TileRow, 'id'>;
  kv!: EntityTable<KvRow, 'key'>;
  jobs!: EntityTable<CachedJob, 'key'>;

  constructor(name = 'takt-floor', options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    this.version(1).stores({
      outbox: '++seq, &id, machineId',
      overlays: '&commandId, machineId, seq',
      rejected: '&id, machineId, rejectedAt',
      tiles: '&id',
      kv: '&key',
      jobs: '&key, machineId, [machineId+search]',
    });
  }
}

/** Keys of the kv table, one place so readers and writers agree. */
export const KV = {
  me: 'me',
  groups: 'groups',
  clockOffset: 'clockOffset',
  dashboardAt: 'dashboardAt',
  annotationTypes: (machineId: string) => `annotationTypes:${machineId}`,
  rejectReasons: 'rejectReasons',
  operators: 'operators',
  setupStages: 'setupStages',
  currentShift: 'currentShift',
  shifts: 'shifts',
  companyFlags: 'companyFlags',
  downtime: (machineId: string) => `downtime:${machineId}`,
  operatorRun: (machineId: string) => `operatorRun:${machineId}`,
  currentRun: (machineId: string) => `currentRun:${machineId}`,
  setupParts: (runId: string) => `setupParts:${runId}`,
  jobsCount: (machineId: string) => `jobsCount:${machineId}`,
  lastMachine: 'lastMachine',
  pulledAt: (machineId: string) => `pulledAt:${machineId}`,
  /** What this device's manual adds on a machine added, oldest first (workcenter/manualParts.ts). */
  manualAdds: (machineId: string) => `manualAdds:${machineId}`,
} as const;

export async function kvGet<T>(db: FloorDb, key: string): Promise<T | undefined> {
  const row = await db.kv.get(key);
  return row?.value as T | undefined;
}

export function kvPut(db: FloorDb, key: string, value: unknown, savedAt = Date.now()) {
  return db.kv.put({ key, value, savedAt });
}

let shared: FloorDb | null = null;
/** The app's one database (tests make their own with fake-indexeddb). */
export function floorDb(): FloorDb {
  shared ??= new FloorDb();
  return shared;
}
