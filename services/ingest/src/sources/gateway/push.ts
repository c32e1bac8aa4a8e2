// Edge gateway pushes and edge health (reports-admin §4; ARCHITECTURE.md "Ingest contract").
//
// A gateway buffers SHDR lines and pushes them in batches, each record carrying the gateway's
// monotonically increasing sequence number. Delivery is at-least-once (a lost answer means the batch
// comes again); storage is exactly-once: only records above the highest stored sequence are taken, and
// the answer acknowledges the new highest stored sequence, after which the gateway drops its copy.
// The decision is a pure function; the API's push route runs it in one transaction holding the gateway's
// row, so two concurrent pushes of one gateway cannot both take the same records.
import { z } from 'zod';
import type { AcceptedRecord, KeyKinds, PushBatch, PushDecision, PushValidation } from '@takt/domain';
import { parseShdrLine, withoutNul } from '../shdr/shdr';

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
