import { workcenterLiveSchema } from '@takt/domain';
import type { WorkcenterLive } from '@takt/domain';

// GET /api/workcenter/:machineId (live-operations §3 "Work center live data"): percents 0–100, durations ms.

/** The card's live data: the §3 fields plus the run it belongs to. */
export type CardLive = WorkcenterLive & { machineId: string; jobRunId: string | null; inSetup: boolean };

/** What the card keeps in Dexie (kv table) so it shows offline: the answer and the server time it was made. */
export interface StoredCardLive {
  live: CardLive;
  /** Server time of the answer. */
  at: number;
}

/** Key of the card's live data in the kv table. */
export const cardLiveKey = (machineId: string) => `workcenterLive:${machineId}`;

/** Validates an answer of GET /api/workcenter/:id; throws on a malformed one (it is then not stored). */
export function parseCardLive(data: unknown, machineId: string): CardLive {
  const base = workcenterLiveSchema.parse(data);
  const raw = (data ?? {}) as Record<string, unknown>;
  return {
    ...base,
    machineId: typeof raw.machineId === 'string' ? raw.machineId : machineId,
    jobRunId: typeof raw.jobRunId === 'string' ? raw.jobRunId : null,
    inSetup: typeof raw.inSetup === 'boolean' ? raw.inSetup : base.setupSince != null,
  };
}

/** A stored row read back from Dexie, or null when it is not one (an older shape, another key). */
export function storedCardLive(value: unknown): StoredCardLive | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<StoredCardLive>;
  if (!v.live || typeof v.at !== 'number') return null;
  return { live: v.live, at: v.at };
}
