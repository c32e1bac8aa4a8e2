import type { SyncOutcome } from '@takt/domain';
import type { ApiClient } from '@takt/ui';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { FloorDb } from './db';
import { applyOutcomes, nextBatch } from './outbox';
import type { PushResult } from './syncMachine';

/** One push round: post the next batch, apply the answers in one transaction, report what is left. */
export async function pushOnce(api: ApiClient, db: FloorDb): Promise<PushResult> {
  const batch = await nextBatch(db);
  if (batch.length === 0) return { sent: 0, more: false, serverErrors: 0 };
  const res = await api.request<{ results: SyncOutcome[] }>(ENDPOINTS.sync, {
    method: 'POST',
    body: { commands: batch },
    on401: 'throw',
  });
  const applied = await applyOutcomes(
    db,
    batch.map((c) => c.id),
    res.results ?? [],
  );
  const more = applied.retry === 0 && (await nextBatch(db)).length > 0;
  return { sent: batch.length, more, serverErrors: applied.retry };
}
