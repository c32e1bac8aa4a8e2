import { MACHINE_STATES } from '@takt/domain';
import type { WorkcenterLive } from '@takt/domain';
import { arrayOf, boolean, nullable, number, object, optional, oneOf, ShapeError, string } from '@takt/ui';
import type { Check } from '@takt/ui';

// GET /api/workcenter/:machineId (live-operations §3 "Work center live data"): percents 0–100, durations ms.

/** The card's live data: the §3 fields plus the run it belongs to. */
export type CardLive = WorkcenterLive & {
  machineId: string;
  jobRunId: string | null;
  inSetup: boolean;
  /** Workcenter type when the answer names it (manual work centers show Add Part and Undo). */
  workcenterType?: string | null;
};

/** What the card keeps in Dexie (kv table) so it shows offline: the answer and the server time it was made. */
export interface StoredCardLive {
  live: CardLive;
  /** Server time of the answer. */
  at: number;
}

/** Key of the card's live data in the kv table. */
export const cardLiveKey = (machineId: string) => `workcenterLive:${machineId}`;

const nonNegative: Check<number> = (v, p) => {
  const n = number(v, p);
  if (n < 0) throw new ShapeError(p);
  return n;
};
const positive: Check<number> = (v, p) => {
  const n = number(v, p);
  if (n <= 0) throw new ShapeError(p);
  return n;
};
const num = nullable(number);
const duration = nullable(nonNegative);

// The fields of the domain's workcenterLiveSchema, checked by hand: zod stays out of the first chunk.
const workcenterLive: Check<WorkcenterLive> = object({
  actualParts: number,
  scrapParts: number,
  quantity: num,
  jobGoodParts: number,
  expectedPartsNow: num,
  partPercent: num,
  utilization: num,
  utilizationBar: num,
  partsBar: num,
  cycletime: duration,
  currentCycle: duration,
  lastCycle: duration,
  lastFew: arrayOf(nonNegative),
  averageCycle: duration,
  oee: num,
  availability: num,
  performance: num,
  quality: num,
  missingStandards: optional(boolean),
  totalDowntime: nonNegative,
  scheduled: boolean,
  jobName: nullable(string),
  program: nullable(string),
  subprogram: nullable(string),
  setupSince: num,
  currentLaborActivitySet: nullable(object({ expectedSetupDuration: duration })),
  operatorRun: nullable(object({ operator: object({ name: string }), startAt: number })),
  multiplier: positive,
  cardStatus: nullable(string),
  stale: boolean,
  state: optional(oneOf(MACHINE_STATES)),
});

/** Validates an answer of GET /api/workcenter/:id; throws on a malformed one (it is then not stored). */
export function parseCardLive(data: unknown, machineId: string): CardLive {
  const base = workcenterLive(data, '');
  const raw = (data ?? {}) as Record<string, unknown>;
  return {
    ...base,
    machineId: typeof raw.machineId === 'string' ? raw.machineId : machineId,
    jobRunId: typeof raw.jobRunId === 'string' ? raw.jobRunId : null,
    inSetup: typeof raw.inSetup === 'boolean' ? raw.inSetup : base.setupSince != null,
    workcenterType: typeof raw.workcenterType === 'string' ? raw.workcenterType : null,
  };
}

/** A stored row read back from Dexie, or null when it is not one (an older shape, another key). */
export function storedCardLive(value: unknown): StoredCardLive | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<StoredCardLive>;
  if (!v.live || typeof v.at !== 'number') return null;
  return { live: v.live, at: v.at };
}
