// Edge gateway pushes (issue 4 point 5) and edge health (reports-admin §4).
//
// A gateway buffers SHDR lines and pushes them in batches, each record carrying the gateway's
// monotonically increasing sequence number. Delivery is at-least-once (a lost answer means the batch
// comes again); storage is exactly-once: only records above the highest stored sequence are taken, and
// the answer acknowledges the new highest stored sequence, after which the gateway drops its copy.
// The decision is a pure function; the store interface below does the one transaction around it.
import { z } from 'zod';
import type { KeyKinds, Observation, ShdrLine } from './shdr';
import { parseShdrLine, withoutNul } from './shdr';

export const MAX_PUSH_RECORDS = 10_000;
export const MAX_PUSH_LINE_LENGTH = 1 << 16;

const record = z.object({
  seq: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  machineRef: z.string().trim().min(1).max(128),
  // Read like a line off an adapter's socket: a NUL becomes U+FFFD (see withoutNul).
  line: z.string().max(MAX_PUSH_LINE_LENGTH).transform(withoutNul),
});

export const pushBatchSchema = z.object({
  gatewayId: z.string().trim().min(1).max(128),
  records: z.array(record).max(MAX_PUSH_RECORDS),
  /** records still waiting in the gateway's buffer after this batch (reports-admin §3 bufferedRecords) */
  bufferedRecords: z.number().int().nonnegative().optional(),
});

export type PushBatch = z.infer<typeof pushBatchSchema>;
export type PushRecord = PushBatch['records'][number];

export interface PushProblem {
  /** where, e.g. `records.3.seq` (empty for the body itself) */
  path: string;
  message: string;
}

export type PushValidation = { ok: true; batch: PushBatch } | { ok: false; problems: PushProblem[] };

/** Checks a push body; problems name the field, so a gateway developer sees what to fix. Never throws. */
export function validatePushBatch(body: unknown): PushValidation {
  const parsed = pushBatchSchema.safeParse(body);
  if (parsed.success) return { ok: true, batch: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.slice(0, 50).map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  };
}

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
}

/**
 * What to store from a valid batch, given the highest sequence stored so far (null: none yet).
 * Records at or below it were stored before: a redelivery. Inside the batch the first record of a
 * sequence wins. A sequence hole is not waited for: sequences are monotonic, not dense, and a gateway
 * that lost records cannot send them again.
 */
export function decidePush(
  batch: PushBatch,
  storedSeq: number | null,
  receivedAt: number,
  keyKinds?: (machineRef: string) => KeyKinds | undefined,
): PushDecision {
  const ordered = batch.records.every((r, i, all) => i === 0 || (all[i - 1]?.seq ?? 0) <= r.seq);
  // Stable sort: among equal sequences the first sent stays first.
  const records = ordered ? batch.records : [...batch.records].sort((a, b) => a.seq - b.seq);
  const accepted: AcceptedRecord[] = [];
  let duplicates = 0;
  let conflicts = 0;
  let skipped = 0;
  let observations = 0;
  let rejected = 0;
  let high = storedSeq;
  for (const r of records) {
    if (high !== null && r.seq <= high) {
      duplicates++;
      const previous = accepted.at(-1);
      if (
        previous &&
        previous.seq === r.seq &&
        (previous.line !== r.line || previous.machineRef !== r.machineRef)
      )
        conflicts++;
      continue;
    }
    if (high !== null && r.seq > high + 1) skipped += r.seq - high - 1;
    const parsed = parseShdrLine(r.line, receivedAt, keyKinds?.(r.machineRef));
    if (parsed.type === 'data') {
      observations += parsed.observations.length;
      rejected += parsed.rejected;
    }
    accepted.push({ ...r, parsed });
    high = r.seq;
  }
  return { accepted, ack: high, duplicates, conflicts, reordered: !ordered, skipped, observations, rejected };
}

/** The observations of accepted records, per machine. */
export function observationsByMachine(accepted: readonly AcceptedRecord[]): Map<string, Observation[]> {
  const out = new Map<string, Observation[]>();
  for (const r of accepted) {
    if (r.parsed.type !== 'data' || r.parsed.observations.length === 0) continue;
    const list = out.get(r.machineRef) ?? [];
    out.set(r.machineRef, list);
    list.push(...r.parsed.observations);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Storage around the decision

export interface GatewayPushTx {
  /** the highest stored sequence of the gateway; null when it never pushed */
  highestSequence(): Promise<number | null>;
  /**
   * Stores the accepted records and the new highest sequence, plus the gateway's lastResponse,
   * bufferedRecords and lastShdr (reports-admin §3).
   */
  store(
    accepted: readonly AcceptedRecord[],
    ack: number | null,
    seen: { at: number; bufferedRecords: number | null },
  ): Promise<void>;
}

export interface GatewayPushStore {
  /**
   * Runs `work` in one transaction that holds the gateway's row (SELECT … FOR UPDATE on PostgreSQL; SQLite
   * serializes writers), so two concurrent pushes of one gateway cannot both take the same records.
   * Unknown gateway → null, and `work` does not run.
   */
  transaction<T>(gatewayId: string, work: (tx: GatewayPushTx) => Promise<T>): Promise<T | null>;
}

export type PushAnswer =
  | { status: 200; body: { ack: number | null; accepted: number; duplicates: number; rejected: number } }
  | { status: 400; body: { error: 'ValidationError'; problems: PushProblem[] } }
  | { status: 404; body: { error: 'UnknownGateway'; message: string } };

/**
 * The push endpoint's work: validate, then decide and store in one transaction, then answer with the
 * acknowledged sequence. `authenticatedGatewayId` comes from the gateway token: a body naming another
 * gateway is refused, so one gateway cannot advance another's sequence.
 */
export async function receivePush(
  store: GatewayPushStore,
  body: unknown,
  now: number,
  options: { authenticatedGatewayId?: string; keyKinds?: (machineRef: string) => KeyKinds | undefined } = {},
): Promise<PushAnswer> {
  const checked = validatePushBatch(body);
  if (!checked.ok) return { status: 400, body: { error: 'ValidationError', problems: checked.problems } };
  const batch = checked.batch;
  if (options.authenticatedGatewayId !== undefined && batch.gatewayId !== options.authenticatedGatewayId) {
    return {
      status: 400,
      body: {
        error: 'ValidationError',
        problems: [{ path: 'gatewayId', message: 'does not match the gateway token' }],
      },
    };
  }
  const answer = await store.transaction(batch.gatewayId, async (tx) => {
    const decision = decidePush(batch, await tx.highestSequence(), now, options.keyKinds);
    await tx.store(decision.accepted, decision.ack, {
      at: now,
      bufferedRecords: batch.bufferedRecords ?? null,
    });
    return decision;
  });
  if (!answer)
    return { status: 404, body: { error: 'UnknownGateway', message: `Unknown gateway ${batch.gatewayId}` } };
  return {
    status: 200,
    body: {
      ack: answer.ack,
      accepted: answer.accepted.length,
      duplicates: answer.duplicates,
      rejected: answer.rejected,
    },
  };
}

/** A GatewayPushStore in memory, for the embedded single-process mode's tests and for tools. */
export function memoryGatewayStore(gatewayIds: readonly string[]) {
  const gateways = new Map(
    gatewayIds.map((id) => [
      id,
      {
        seq: null as number | null,
        records: [] as AcceptedRecord[],
        lastResponse: null as number | null,
        bufferedRecords: null as number | null,
        lastShdr: null as string | null,
      },
    ]),
  );
  let queue: Promise<unknown> = Promise.resolve();
  const store: GatewayPushStore = {
    transaction<T>(gatewayId: string, work: (tx: GatewayPushTx) => Promise<T>): Promise<T | null> {
      // One transaction at a time, like the row lock: a second push waits for the first.
      const run = queue.then(async () => {
        const g = gateways.get(gatewayId);
        if (!g) return null;
        const staged: {
          value: {
            accepted: readonly AcceptedRecord[];
            ack: number | null;
            at: number;
            buffered: number | null;
          } | null;
        } = { value: null };
        const result = await work({
          highestSequence: async () => g.seq,
          store: async (accepted, ack, seen) => {
            staged.value = { accepted, ack, at: seen.at, buffered: seen.bufferedRecords };
          },
        });
        // Applied only when the work succeeded: a failure leaves nothing half-stored.
        const s = staged.value;
        if (s) {
          g.records.push(...s.accepted);
          g.seq = s.ack;
          g.lastResponse = s.at;
          g.bufferedRecords = s.buffered;
          g.lastShdr = s.accepted.at(-1)?.line ?? g.lastShdr;
        }
        return result;
      });
      queue = run.catch(() => {});
      return run;
    },
  };
  return { store, gateways };
}

// ---------------------------------------------------------------------------------------------
// Edge health (reports-admin §4, §9)

export type EdgeHealth = 'NeverReported' | 'NotReporting' | 'MixedStatus' | 'Normal' | 'Unknown';
export type Tone = 'success' | 'warning' | 'danger';

/** reports-admin §4: the tone each health shows in. */
export const EDGE_HEALTH_TONE: Readonly<Record<EdgeHealth, Tone>> = {
  NeverReported: 'warning',
  NotReporting: 'danger',
  MixedStatus: 'warning',
  Normal: 'success',
  Unknown: 'danger',
};

/** reports-admin §4: MixedStatus reads "Degraded". */
export const EDGE_HEALTH_LABEL: Readonly<Record<EdgeHealth, string>> = {
  NeverReported: 'Never Reported',
  NotReporting: 'Not Reporting',
  MixedStatus: 'Degraded',
  Normal: 'Normal',
  Unknown: 'Unknown',
};

/** reports-admin §9: a gateway whose last response is older than this is not reporting. */
export const GATEWAY_RESPONSE_TIMEOUT_MS = 300_000;
/** reports-admin §9: a buffer above this many records is danger. */
export const GATEWAY_BUFFER_DANGER = 1_000;
/** A clock this far ahead of ours is not trusted. */
const CLOCK_SKEW_MS = 60_000;

export interface EdgeHealthInput {
  /** epoch ms of the gateway's last push or heartbeat; null when it never reported */
  lastResponse: number | null;
  /** live connection of each machine behind the gateway; omitted when not known */
  machines?: ReadonlyArray<'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN'>;
}

/**
 * Edge health, in this order:
 *  - never reported → NeverReported;
 *  - a last response we cannot place (not a number, or ahead of our clock) → Unknown;
 *  - last response older than 300000 ms → NotReporting;
 *  - the gateway answers but some or all of its machines do not → MixedStatus (Degraded);
 *  - a machine whose state is unknown → Unknown;
 *  - otherwise Normal.
 */
export function edgeHealth(input: EdgeHealthInput, now: number): EdgeHealth {
  const { lastResponse } = input;
  if (lastResponse === null) return 'NeverReported';
  if (!Number.isFinite(lastResponse) || lastResponse - now > CLOCK_SKEW_MS) return 'Unknown';
  if (now - lastResponse > GATEWAY_RESPONSE_TIMEOUT_MS) return 'NotReporting';
  const machines = input.machines ?? [];
  if (machines.includes('DISCONNECTED')) return 'MixedStatus';
  if (machines.includes('UNKNOWN')) return 'Unknown';
  return 'Normal';
}

/** reports-admin §9: Buffer Size cell tone. Unknown size → no tone. */
export function bufferTone(bufferedRecords: number | null): Tone | null {
  if (bufferedRecords === null || !Number.isFinite(bufferedRecords)) return null;
  return bufferedRecords > GATEWAY_BUFFER_DANGER ? 'danger' : 'success';
}

/** reports-admin §9: last response cell tone. Never responded → no tone (NeverReported says it). */
export function lastResponseTone(lastResponse: number | null, now: number): Tone | null {
  if (lastResponse === null) return null;
  return now - lastResponse > GATEWAY_RESPONSE_TIMEOUT_MS ? 'danger' : 'success';
}

export type SupervisorHeartbeat =
  { tone: Tone; text: 'ok' | 'late' | 'lost' } | { tone: null; text: 'waiting' };

/** reports-admin §4: supervised heartbeat over 5 min danger, over 2 min warning, none yet waiting. */
export function supervisorHeartbeat(lastJoin: number | null, now: number): SupervisorHeartbeat {
  if (lastJoin === null) return { tone: null, text: 'waiting' };
  const age = now - lastJoin;
  if (age > 5 * 60_000) return { tone: 'danger', text: 'lost' };
  if (age > 2 * 60_000) return { tone: 'warning', text: 'late' };
  return { tone: 'success', text: 'ok' };
}
