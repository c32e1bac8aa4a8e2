// Edge gateway pushes and edge health (reports-admin §4; ARCHITECTURE.md "Ingest contract").
//
// A gateway buffers SHDR lines and pushes them in batches, each record carrying the gateway's
// monotonically increasing sequence number. Delivery is at-least-once (a lost answer means the batch
// comes again); storage is exactly-once: only records above the highest stored sequence are taken, and
// the answer acknowledges the new highest stored sequence, after which the gateway drops its copy.
// The decision is a pure function; the API's push route runs it in one transaction holding the gateway's
// row, so two concurrent pushes of one gateway cannot both take the same records.
import { z } from 'zod';
import type {
  AcceptedRecord,
  KeyKinds,
  PushBatch,
  PushDecision,
  PushRecord,
  PushValidation,
  SequenceGap,
} from '@takt/domain';
import { boundToWindow, parseShdrLine, withoutNul } from '../shdr/shdr';

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

export type {
  AcceptedRecord,
  PushBatch,
  PushDecision,
  PushProblem,
  PushRecord,
  PushValidation,
} from '@takt/domain';

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

/** Gap ranges kept per gateway (decision 0981): past this many the lowest are forgotten (their records repeats). */
export const MAX_SEQUENCE_GAPS = 1000;

/** Index of the gap holding `seq`, or -1. `gaps` is sorted and disjoint. */
function gapOf(gaps: readonly SequenceGap[], seq: number): number {
  let lo = 0;
  let hi = gaps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = gaps[mid]!;
    if (seq < from) hi = mid - 1;
    else if (seq > to) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Mutates `gaps`: takes `seq` out of the gap at index `i`, splitting it when `seq` is inside. */
function fillGap(gaps: SequenceGap[], i: number, seq: number): void {
  const [from, to] = gaps[i]!;
  const parts: SequenceGap[] = [];
  if (from < seq) parts.push([from, seq - 1]);
  if (seq < to) parts.push([seq + 1, to]);
  gaps.splice(i, 1, ...parts);
}

/**
 * What to store from a valid batch, given the highest sequence stored so far (null: none yet) and the holes
 * below it never received (`gaps`). A record above the stored sequence is new; one below it is stored when its
 * sequence is in a hole (a late record, decision 0981) and is a redelivery otherwise. Inside the batch the
 * first record of a sequence wins. A hole is not waited for: sequences are monotonic, not dense. A data line
 * dated outside the window of decision 0980 is refused and counted (`timeRefused`) but its sequence is
 * consumed, so the gateway may drop it. Pure: `receivedAt` is the server clock.
 */
export function decidePush(
  batch: PushBatch,
  storedSeq: number | null,
  receivedAt: number,
  keyKinds?: (machineRef: string) => KeyKinds | undefined,
  storedGaps: readonly SequenceGap[] = [],
): PushDecision {
  const ordered = batch.records.every((r, i, all) => i === 0 || (all[i - 1]?.seq ?? 0) <= r.seq);
  // Stable sort: among equal sequences the first sent stays first.
  const records = ordered ? batch.records : [...batch.records].sort((a, b) => a.seq - b.seq);
  const gaps: SequenceGap[] = storedGaps.map(([from, to]) => [from, to]);
  const accepted: AcceptedRecord[] = [];
  let duplicates = 0;
  let conflicts = 0;
  let skipped = 0;
  let observations = 0;
  let rejected = 0;
  let timeRefused = 0;
  let high = storedSeq;
  let last: PushRecord | null = null;
  for (const r of records) {
    const hole = high !== null && r.seq <= high ? gapOf(gaps, r.seq) : -1;
    if (high !== null && r.seq <= high && hole < 0) {
      duplicates++;
      if (last && last.seq === r.seq && (last.line !== r.line || last.machineRef !== r.machineRef))
        conflicts++;
      continue;
    }
    if (hole >= 0) fillGap(gaps, hole, r.seq);
    else {
      if (high !== null && r.seq > high + 1) {
        skipped += r.seq - high - 1;
        gaps.push([high + 1, r.seq - 1]);
      }
      high = r.seq;
    }
    last = r;
    const parsed = boundToWindow(parseShdrLine(r.line, receivedAt, keyKinds?.(r.machineRef)), receivedAt);
    if (parsed.type === 'data' && parsed.outOfWindow) {
      timeRefused++;
      continue;
    }
    if (parsed.type === 'data') {
      observations += parsed.observations.length;
      rejected += parsed.rejected;
    }
    accepted.push({ ...r, parsed });
  }
  if (gaps.length > MAX_SEQUENCE_GAPS) gaps.splice(0, gaps.length - MAX_SEQUENCE_GAPS);
  return {
    accepted,
    ack: high,
    duplicates,
    conflicts,
    reordered: !ordered,
    skipped,
    observations,
    rejected,
    timeRefused,
    gaps,
  };
}
